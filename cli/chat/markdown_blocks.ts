/**
 * Markdown blocks as styled lines fitted to a width: headings without their `#` marks (bold and
 * coloured; underlined by a rule without colour), paragraphs word-wrapped, lists with bullets
 * or numbers and nesting, block quotes behind a bar, rules, tables and code. A container (list
 * item, quote) renders its blocks at its inner width and adds its own margin.
 *
 * @module
 */
import type { Token, Tokens } from "marked";
import { renderCode } from "./markdown_code.ts";
import { inlineSpans } from "./markdown_inline.ts";
import { renderTable } from "./markdown_table.ts";
import {
  columns,
  cutToWidth,
  expandTabs,
  type Line,
  lineColumns,
  type Span,
  wrapSpans,
} from "./styled_text.ts";

/** Where a block is drawn. */
export interface BlockContext {
  /** Columns available to the block. */
  width: number;
  color: boolean;
  /** How many lists the block is inside (picks the bullet). */
  depth: number;
}

/** SGR parameters of the block styles, by heading level (1 to 6) and part. */
const HEADING_STYLES = ["1;4;35", "1;35", "1", "1", "1", "1"];
const DIM = "2";
const BULLETS = ["•", "◦", "▪"];

/**
 * `tokens` one after another, parted by a blank line: always (the blocks of an answer or a
 * quote), or `asWritten`, only where the source has one (the blocks of a list item).
 */
export function renderBlocks(tokens: readonly Token[], context: BlockContext, asWritten = false) {
  const lines: Line[] = [];
  let blankBefore = false;
  for (const token of tokens) {
    if (token.type === "space") blankBefore = true;
    const block = renderBlock(token, context);
    if (block.length === 0) continue;
    if (lines.length > 0 && (blankBefore || !asWritten)) lines.push([]);
    lines.push(...block);
    blankBefore = false;
  }
  return lines;
}

/** One block token as lines of at most `context.width` columns (none for what shows nothing). */
export function renderBlock(token: Token, context: BlockContext): Line[] {
  const { width, color } = context;
  switch (token.type) {
    case "space":
    case "def":
    case "checkbox":
      return [];
    case "paragraph":
    case "text":
      return wrapSpans(textSpans(token, color), width);
    case "heading":
      return heading(token as Tokens.Heading, context);
    case "code": {
      const code = token as Tokens.Code;
      return renderCode(code.text, code.lang?.trim().split(/\s+/)[0], width, color);
    }
    case "blockquote":
      return quote(token as Tokens.Blockquote, context);
    case "list":
      return list(token as Tokens.List, context);
    case "table":
      return renderTable(token as Tokens.Table, width, color);
    case "hr":
      return [[{ text: "─".repeat(width), style: DIM }]];
    case "html":
      return token.text.replace(/\n+$/, "").split("\n").flatMap((line: string) =>
        cutToWidth([{ text: expandTabs(line), style: "" }], width)
      );
    default:
      return wrapSpans([{ text: token.raw, style: "" }], width);
  }
}

function textSpans(token: Token, color: boolean): Span[] {
  if ("tokens" in token && token.tokens) return inlineSpans(token.tokens, color);
  return [{ text: "text" in token ? String(token.text) : token.raw, style: "" }];
}

function heading(token: Tokens.Heading, { width, color }: BlockContext): Line[] {
  const spans = inlineSpans(token.tokens, color, HEADING_STYLES[token.depth - 1] ?? "1");
  if (spans.length === 0) return [];
  const lines = wrapSpans(spans, width);
  if (color || token.depth > 2) return lines;
  // Without colour or bold, a rule under the title still tells a heading from a paragraph.
  const length = Math.min(width, Math.max(...lines.map(lineColumns)));
  return [...lines, [{ text: (token.depth === 1 ? "═" : "─").repeat(length), style: "" }]];
}

function quote(token: Tokens.Blockquote, context: BlockContext): Line[] {
  const inner = renderBlocks(
    token.tokens,
    { ...context, width: Math.max(1, context.width - 2) },
    false,
  );
  return inner.map((line): Line =>
    line.length === 0 ? [{ text: "│", style: DIM }] : [{ text: "│ ", style: DIM }, ...line]
  );
}

function list(token: Tokens.List, context: BlockContext): Line[] {
  return renderListItems(token, context, typeof token.start === "number" ? token.start : 1);
}

/** Whether a list item's source ends with a blank line (the next item is set off by one). */
export function endsWithBlankLine(item: Tokens.ListItem): boolean {
  return /\n[ \t]*\n\s*$/.test(item.raw);
}

/**
 * A list's items, numbered from `first` when ordered. Each item is drawn from its own source
 * alone (its number's width, blank lines where the source has them), so the items of a long
 * list can be drawn, and settle, a few at a time while it streams.
 */
export function renderListItems(token: Tokens.List, context: BlockContext, first: number) {
  const lines: Line[] = [];
  const bullet = BULLETS[context.depth % BULLETS.length]!;
  token.items.forEach((item, index) => {
    if (index > 0 && endsWithBlankLine(token.items[index - 1]!)) lines.push([]);
    const marker = `${token.ordered ? `${first + index}.` : bullet} ` +
      (item.task ? (item.checked ? "[x] " : "[ ] ") : "");
    const indent = " ".repeat(columns(marker));
    const inner = {
      ...context,
      width: Math.max(1, context.width - indent.length),
      depth: context.depth + 1,
    };
    const body = renderBlocks(item.tokens, inner, true);
    (body.length > 0 ? body : [[]]).forEach((line, row) => {
      if (row > 0 && line.length === 0) lines.push([]);
      else lines.push([{ text: row === 0 ? marker : indent, style: "" }, ...line]);
    });
  });
  return lines;
}
