/**
 * Markdown source (already neutralised) lexed with marked and drawn block by block, for the
 * stream: the lexer it uses, how to tell the open block and a fenced block, and the rendering
 * of a run of top-level blocks, the first of which may go on with a list whose first items
 * were drawn before.
 *
 * @module
 */
import { Lexer, type Links, type Token, type Tokens } from "marked";
import { type BlockContext, renderBlock, renderListItems } from "./markdown_blocks.ts";
import { FencedCode, parseFenceOpener } from "./markdown_code.ts";
import type { Line } from "./styled_text.ts";

/** A top-level list whose first items were drawn already: how its next item goes on. */
export interface ListContinuation {
  /** The number of its next item (for an ordered list). */
  next: number;
  /** Whether the source has a blank line before the next item. */
  blankBefore: boolean;
}

/** One top-level block drawn. */
export interface DrawnBlock {
  lines: Line[];
  /** It goes on with what was drawn before (a list), so no blank line of its own comes first. */
  continues: boolean;
}

/**
 * A lexer with marked's GitHub-flavoured defaults, whatever options another part of hel may
 * have set globally (each lexer gets its own options object: marked attaches its tokenizer).
 */
export function newLexer(): Lexer {
  return new Lexer({ gfm: true, breaks: false, pedantic: false });
}

/** Index of the last token that is not blank space (the block still open), or 0. */
export function lastContentIndex(tokens: readonly Token[]): number {
  for (let index = tokens.length - 1; index >= 0; index--) {
    if (tokens[index]!.type !== "space") return index;
  }
  return 0;
}

/** A fenced code block (its own lines are read by {@link FencedCode}). */
export function isFenced(token: Token): boolean {
  return token.type === "code" && (token as Tokens.Code).codeBlockStyle !== "indented" &&
    parseFenceOpener(token.raw.split("\n", 1)[0]!) !== undefined;
}

/** The opening line of a fenced block's source, without its newline. */
export function openerLine(raw: string): string {
  return raw.split("\n", 1)[0]!;
}

/** A fence for the block that `opener` opens. */
export function newFence(opener: string, context: BlockContext): FencedCode {
  return new FencedCode(parseFenceOpener(opener)!, context.width, context.color);
}

/**
 * The top-level blocks of `source` drawn one by one. Link definitions in it are added to
 * `links` (marked keeps the first of a name). With `list`, a list the source begins with goes
 * on from there: numbered on, and after a blank line if the source had one.
 */
export function drawSource(
  source: string,
  context: BlockContext,
  links: Links,
  list?: ListContinuation,
): DrawnBlock[] {
  if (source.trim() === "") return [];
  const lexer = newLexer();
  Object.assign(lexer.tokens.links, links);
  const tokens = lexer.lex(source);
  Object.assign(links, lexer.tokens.links);
  return tokens.map((token, index): DrawnBlock => {
    if (isFenced(token)) return { lines: drawFence(token.raw, context), continues: false };
    if (index === 0 && list && token.type === "list") {
      const lines = renderListItems(token as Tokens.List, context, list.next);
      return { lines: list.blankBefore ? [[], ...lines] : lines, continues: true };
    }
    return { lines: renderBlock(token, context), continues: false };
  });
}

/** A fenced block's whole source drawn (its fence reads the lines up to its closing one). */
function drawFence(raw: string, context: BlockContext): Line[] {
  const [opener = "", ...lines] = raw.replace(/\n$/, "").split("\n");
  const code = newFence(opener, context);
  for (const line of lines) if (code.feed(line)) break;
  return code.end();
}
