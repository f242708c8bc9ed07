/**
 * The Markdown table every bench report section draws its figures in.
 *
 * @module
 */

/** A Markdown table: the header row, the `---` row under it, then one row per entry of `rows`. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}
