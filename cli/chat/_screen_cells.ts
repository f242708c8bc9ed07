/**
 * For tests of the chat's renderers: text as a terminal emulator (`@xterm/headless`) shows it,
 * cell by cell with its attributes, so a test can say "this word is bold" rather than name
 * escape codes.
 *
 * @module
 */
import xterm from "@xterm/headless";

/** One cell as a person sees it. */
export interface Cell {
  char: string;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strikethrough: boolean;
  dim: boolean;
  invisible: boolean;
  /** Palette colour (0–15 for the basic colours), undefined for the terminal's default. */
  color: number | undefined;
}

/** What the terminal shows: each line's text (right-trimmed) and its cells. */
export interface CellScreen {
  lines: string[];
  cells: Cell[][];
  title: string;
}

/** Feeds `output` (lines parted by `\n`) to a terminal `columns` wide and reads the screen. */
export async function screenCells(output: string, columns = 120): Promise<CellScreen> {
  const rows = output.split("\n").length + 1;
  const terminal = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true });
  let title = "";
  terminal.onTitleChange((text) => title = text);
  await new Promise<void>((resolve) => terminal.write(output.replaceAll("\n", "\r\n"), resolve));
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  const cells: Cell[][] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y)!;
    const row: Cell[] = [];
    for (let x = 0; x < line.length; x++) {
      const cell = line.getCell(x)!;
      if (cell.getWidth() === 0) continue;
      row.push({
        char: cell.getChars() || " ",
        bold: cell.isBold() !== 0,
        italic: cell.isItalic() !== 0,
        underline: cell.isUnderline() !== 0,
        strikethrough: cell.isStrikethrough() !== 0,
        dim: cell.isDim() !== 0,
        invisible: cell.isInvisible() !== 0,
        color: cell.isFgDefault() ? undefined : cell.getFgColor(),
      });
    }
    cells.push(row);
    lines.push(row.map((cell) => cell.char).join("").trimEnd());
  }
  terminal.dispose();
  while (lines.length > 0 && lines.at(-1) === "") {
    lines.pop();
    cells.pop();
  }
  return { lines, cells, title };
}

/** The cells of the first place `text` shows on the screen (throws when it does not). */
export function cellsOf(screen: CellScreen, text: string): Cell[] {
  const length = [...text].length;
  for (const row of screen.cells) {
    const chars = row.map((cell) => cell.char);
    for (let x = 0; x + length <= chars.length; x++) {
      if (chars.slice(x, x + length).join("") === text) return row.slice(x, x + length);
    }
  }
  throw new Error(`"${text}" is not on the screen:\n${screen.lines.join("\n")}`);
}

/** Whether every cell of the first place `text` shows has `attribute`. */
export function allCells(screen: CellScreen, text: string, attribute: (cell: Cell) => boolean) {
  return cellsOf(screen, text).every(attribute);
}
