/**
 * Markdown tables drawn with box lines, columns aligned as the table asks and fitted to the
 * width: columns wider than their share are narrowed and their cells wrapped. A table too wide
 * for even three columns per cell is shown row by row as `header: value` lines instead.
 *
 * @module
 */
import type { Tokens } from "marked";
import { INLINE_STYLES, inlineSpans } from "./markdown_inline.ts";
import { type Line, lineColumns, padLine, type Span, wrapSpans } from "./styled_text.ts";

const BORDER = "2";
const NARROWEST_COLUMN = 3;

type Align = "left" | "right" | "center" | null;

/**
 * Column widths within `room` columns: each column keeps its natural width when all fit;
 * otherwise every column is capped at one level (the widest that fits) and what is left over
 * goes one column at a time to those that were cut.
 */
export function fitColumns(natural: readonly number[], room: number): number[] {
  const total = natural.reduce((sum, width) => sum + width, 0);
  if (total <= room) return [...natural];
  const cappedTotal = (cap: number) =>
    natural.reduce((sum, width) => sum + Math.min(width, cap), 0);
  // The widest cap that fits, by bisection: a cell can be a whole paragraph long.
  let fits = NARROWEST_COLUMN;
  let tooWide = Math.max(...natural);
  while (tooWide - fits > 1) {
    const middle = Math.floor((fits + tooWide) / 2);
    if (cappedTotal(middle) <= room) fits = middle;
    else tooWide = middle;
  }
  const cap = fits;
  const widths = natural.map((width) => Math.min(width, cap));
  let left = room - widths.reduce((sum, width) => sum + width, 0);
  for (let column = 0; left > 0 && column < widths.length; column++) {
    if (natural[column]! > widths[column]!) {
      widths[column]!++;
      left--;
    }
  }
  return widths;
}

function aligned(line: Line, width: number, align: Align): Line {
  const missing = width - lineColumns(line);
  if (missing <= 0) return line;
  const left = align === "right" ? missing : align === "center" ? Math.floor(missing / 2) : 0;
  const padded = left > 0 ? [{ text: " ".repeat(left), style: "" }, ...line] : line;
  return padLine(padded, width);
}

function rule(widths: readonly number[], left: string, middle: string, right: string): Line {
  const text = left + widths.map((width) => "─".repeat(width + 2)).join(middle) + right;
  return [{ text, style: BORDER }];
}

/** One table row: each cell wrapped to its column, the row as tall as its tallest cell. */
function rowLines(cells: readonly Span[][], widths: readonly number[], aligns: Align[]): Line[] {
  const wrapped = cells.map((cell, column) => wrapSpans(cell, widths[column]!));
  const height = Math.max(...wrapped.map((lines) => lines.length));
  const bar: Span = { text: "│", style: BORDER };
  const lines: Line[] = [];
  for (let row = 0; row < height; row++) {
    const line: Line = [bar];
    wrapped.forEach((cellLines, column) => {
      line.push({ text: " ", style: "" });
      line.push(...aligned(cellLines[row] ?? [], widths[column]!, aligns[column] ?? null));
      line.push({ text: " ", style: "" }, bar);
    });
    lines.push(line);
  }
  return lines;
}

/** The table as `header: value` lines per row, rows parted by a rule: for narrow screens. */
function stacked(header: Span[][], rows: Span[][][], width: number): Line[] {
  const lines: Line[] = [];
  rows.forEach((row, index) => {
    if (index > 0) lines.push([{ text: "─".repeat(width), style: BORDER }]);
    row.forEach((cell, column) => {
      const name = header[column] ?? [];
      lines.push(...wrapSpans([...name, { text: ": ", style: "" }, ...cell], width));
    });
  });
  return lines;
}

/** A table token drawn in at most `width` columns. */
export function renderTable(table: Tokens.Table, width: number, color: boolean): Line[] {
  const header = table.header.map((cell) => inlineSpans(cell.tokens, color, INLINE_STYLES.strong));
  const rows = table.rows.map((row) => row.map((cell) => inlineSpans(cell.tokens, color)));
  const count = header.length;
  const frame = 3 * count + 1;
  if (width - frame < NARROWEST_COLUMN * count) return stacked(header, rows, width);
  // A cell's natural width is its widest line when nothing wraps it.
  const natural = Array.from({ length: count }, (_, column) => {
    const cells = [header[column]!, ...rows.map((row) => row[column] ?? [])];
    const lines = cells.flatMap((cell) => wrapSpans(cell, Number.MAX_SAFE_INTEGER));
    return lines.reduce((widest, line) => Math.max(widest, lineColumns(line)), 1);
  });
  const widths = fitColumns(natural, width - frame);
  const aligns = table.align as Align[];
  return [
    rule(widths, "┌", "┬", "┐"),
    ...rowLines(header, widths, aligns),
    rule(widths, "├", "┼", "┤"),
    ...rows.flatMap((row) =>
      rowLines(Array.from({ length: count }, (_, i) => row[i] ?? []), widths, aligns)
    ),
    rule(widths, "└", "┴", "┘"),
  ];
}
