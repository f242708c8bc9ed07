/**
 * A markdown answer rendered while it streams. The text is neutralised as it comes, cut into
 * top-level blocks with marked's lexer, and a block settles once the next one has begun on a
 * complete line: nothing later can change it. Only what is open is lexed and drawn again as
 * text arrives; a fenced code block settles piece by piece, and a long list item by item, so
 * the cost grows with the answer's length, not its square, and the open part stays short.
 *
 * @module
 */
import type { Links, Token, Tokens } from "marked";
import { neutralise } from "../../core/neutralise.ts";
import type { BlockContext } from "./markdown_blocks.ts";
import { endsWithBlankLine } from "./markdown_blocks.ts";
import type { FencedCode } from "./markdown_code.ts";
import {
  drawSource,
  isFenced,
  lastContentIndex,
  type ListContinuation,
  newFence,
  newLexer,
  openerLine,
} from "./markdown_source.ts";
import { encodeLine, type Line } from "./styled_text.ts";

/** How the markdown is drawn. */
export interface MarkdownOptions {
  /** Columns of the terminal (every line fits in them); 80 when it is not a number. */
  width: number;
  /** False for NO_COLOR or TERM=dumb: no escape sequences at all, the same layout. */
  color: boolean;
}

/** A fenced block being fed, and whether it has shown any line yet. */
interface OpenFence {
  code: FencedCode;
  started: boolean;
}

/**
 * A streamed answer rendered as it arrives. The rendering is the settled items, in order, then
 * the live part, joined with newlines; an item that begins a block after another begins with
 * an empty line (the space between blocks), so each item can be printed as it is, once.
 */
export class MarkdownStream {
  readonly #context: BlockContext;
  /** Neutralised text not yet settled: from the open block on, or the line after a fence's. */
  #pending = "";
  /**
   * Where the whole lines of the pending text end (after its last `\n`), kept as text comes:
   * searching a long pending text for it would copy the text at every delta.
   */
  #complete = 0;
  /**
   * How much of the pending text (whole lines) the lexer saw last time without settling it.
   * It is lexed again once an eighth more has come, so a huge open block (a table of
   * thousands of rows) costs linear time, at the price of settling a little later.
   */
  #lexed = 0;
  /** A `\r` that ended the last delta: a line end if `\n` comes next, else shown. */
  #carriageReturn = false;
  #fence: OpenFence | undefined;
  /** The list the pending text begins with, when its first items have settled. */
  #list: ListContinuation | undefined;
  #links: Links = Object.create(null);
  #items: string[] = [];
  /** Whether a block has been shown (the next one is set off by an empty line). */
  #shownBlock = false;
  #finished = false;
  /** The live part as last rendered, until more text arrives. */
  #live: string | undefined;

  constructor(options: MarkdownOptions) {
    this.#context = {
      // A terminal that does not say its width (columns undefined) gets the usual 80.
      width: Number.isFinite(options.width) ? Math.max(1, Math.floor(options.width)) : 80,
      color: options.color,
      depth: 0,
    };
  }

  /** Takes the next piece of the answer. Ignored once the stream has finished. */
  push(delta: string): void {
    if (this.#finished) return;
    let text = this.#carriageReturn ? `\r${delta}` : delta;
    this.#carriageReturn = text.endsWith("\r");
    if (this.#carriageReturn) text = text.slice(0, -1);
    // Neutralised piece by piece: each control character alone, `\r\n` kept whole above.
    text = neutralise(text);
    if (text === "") return;
    this.#pending += text;
    this.#live = undefined;
    const newline = text.lastIndexOf("\n");
    if (newline < 0) return;
    this.#complete = this.#pending.length - text.length + newline + 1;
    this.#advance(false);
  }

  /** Rendered blocks (or pieces of a long one) that will not change; each returned once. */
  takeSettled(): string[] {
    const items = this.#items;
    this.#items = [];
    return items;
  }

  /** The rendering of what is still open, preceded by its blank line when one is due. */
  live(): string {
    return this.#live ??= this.#drawLive();
  }

  /** The answer has ended: everything not yet taken, rendered. */
  finish(): string[] {
    if (!this.#finished) {
      if (this.#carriageReturn) this.#pending += neutralise("\r");
      this.#carriageReturn = false;
      this.#advance(true);
      this.#finished = true;
      this.#live = undefined;
    }
    return this.takeSettled();
  }

  #drawLive(): string {
    if (this.#finished) return "";
    if (this.#fence) {
      const lines = this.#fence.code.live(this.#pending);
      return this.#encoded(lines, this.#fence.started);
    }
    // Drawn with a copy of the links: definitions in the open part may still change.
    const lines: Line[] = [];
    let shown = this.#shownBlock;
    const blocks = drawSource(this.#pending, this.#context, { ...this.#links }, this.#list);
    for (const { lines: block, continues } of blocks) {
      if (block.length === 0) continue;
      if (shown && !continues) lines.push([]);
      lines.push(...block);
      shown = true;
    }
    return lines.map((line) => encodeLine(line, this.#context.color)).join("\n");
  }

  /** Settles what whole lines decide (all of the text when `final`). */
  #advance(final: boolean): void {
    while (true) {
      if (this.#fence) {
        if (!this.#feedFence(final)) return;
        continue;
      }
      const end = final ? this.#pending.length : this.#complete;
      if (end === 0 || !final && end - this.#lexed < this.#lexed / 8) return;
      const tokens = newLexer().blockTokens(this.#pending.slice(0, end), []);
      // The last block may still grow, unless the answer has ended.
      const open = final ? tokens.length : lastContentIndex(tokens);
      let offset = 0;
      for (const [index, token] of tokens.entries()) {
        if (index === open) {
          if (isFenced(token)) offset += this.#openFence(token);
          else if (token.type === "list") offset += this.#settleListHead(token as Tokens.List);
          break;
        }
        const toEnd = final && index === tokens.length - 1;
        if (isFenced(token) && !this.#settleFence(token, toEnd)) {
          offset += this.#openFence(token);
          break;
        }
        if (!isFenced(token)) this.#settle(token.raw);
        this.#list = undefined;
        offset += token.raw.length;
      }
      this.#drop(offset);
      this.#lexed = this.#fence ? 0 : end - offset;
      if (!this.#fence) return;
    }
  }

  /** Removes the first `count` characters of the pending text (they are settled). */
  #drop(count: number): void {
    this.#pending = this.#pending.slice(count);
    this.#complete = Math.max(0, this.#complete - count);
  }

  /** Lets a fence read its block's lines from here on; the length of its opening line. */
  #openFence(token: Token): number {
    const opener = openerLine(token.raw);
    this.#fence = { code: newFence(opener, this.#context), started: false };
    this.#list = undefined;
    return Math.min(opener.length + 1, token.raw.length);
  }

  /**
   * A fenced block whose end the lexer has seen, settled at once: true when the fence's own
   * reading of the lines ends where the lexer's did (at its closing line, or at the end of the
   * answer when `toEnd`); otherwise nothing is settled and the fence reads them as they come.
   */
  #settleFence(token: Token, toEnd: boolean): boolean {
    const [opener = "", ...lines] = token.raw.replace(/\n$/, "").split("\n");
    const code = newFence(opener, this.#context);
    const closedAt = lines.findIndex((line) => code.feed(line));
    if (closedAt === -1 ? !toEnd : closedAt !== lines.length - 1) return false;
    this.#settleLines(code.end(), false);
    return true;
  }

  /**
   * Feeds the fence its whole lines (and, when `final`, the last one): true when its closing
   * line came and the text after it is back to blocks.
   */
  #feedFence(final: boolean): boolean {
    const fence = this.#fence!;
    let start = 0;
    let closed = false;
    while (!closed) {
      const newline = this.#pending.indexOf("\n", start);
      if (newline < 0 && !(final && start < this.#pending.length)) break;
      const stop = newline < 0 ? this.#pending.length : newline;
      closed = fence.code.feed(this.#pending.slice(start, stop));
      start = newline < 0 ? stop : newline + 1;
    }
    this.#drop(start);
    this.#settleFenceLines(fence.code.take());
    if (!closed && !final) return false;
    this.#settleFenceLines(fence.code.end());
    this.#fence = undefined;
    return closed;
  }

  #settleFenceLines(lines: Line[]): void {
    if (lines.length === 0) return;
    this.#settleLines(lines, this.#fence!.started);
    this.#fence!.started = true;
  }

  /**
   * The items of the open list but its last settled (the last may still grow); the length of
   * their source. The list goes on from the next item.
   */
  #settleListHead(list: Tokens.List): number {
    const head = list.items.slice(0, -1);
    if (head.length === 0) return 0;
    const source = head.map((item) => item.raw).join("");
    const first = this.#list?.next ?? (typeof list.start === "number" ? list.start : 1);
    this.#settle(source);
    this.#list = { next: first + head.length, blankBefore: endsWithBlankLine(head.at(-1)!) };
    return source.length;
  }

  /** Top-level blocks' source drawn and settled (the first may go on with a list). */
  #settle(source: string): void {
    for (const block of drawSource(source, this.#context, this.#links, this.#list)) {
      this.#settleLines(block.lines, block.continues);
    }
  }

  /** Lines settled as one item; a new block is set off by an empty line. */
  #settleLines(lines: readonly Line[], continues: boolean): void {
    if (lines.length === 0) return;
    this.#items.push(this.#encoded(lines, continues));
    this.#shownBlock = true;
  }

  #encoded(lines: readonly Line[], continues: boolean): string {
    if (lines.length === 0) return "";
    const text = lines.map((line) => encodeLine(line, this.#context.color)).join("\n");
    return this.#shownBlock && !continues ? `\n${text}` : text;
  }
}
