/**
 * The Markdown table every bench report section draws its figures in, and how it writes a
 * count.
 *
 * @module
 */
import { groupDigits } from "../core/text.ts";

/** A Markdown table: the header row, the `---` row under it, then one row per entry of `rows`. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** A count or a whole-millisecond figure: rounded, digits grouped by commas (`12,345`). */
export function int(value: number): string {
  return groupDigits(Math.round(value));
}
