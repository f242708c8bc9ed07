/**
 * What a person sees: terminal output rendered by a real terminal emulator (`@xterm/headless`,
 * the core of VS Code's terminal), cell by cell, with concealed text (SGR 8) left blank as the
 * terminal would show it.
 *
 * @module
 */
import xterm from "@xterm/headless";

/** The rendered screen: every line of the buffer (scrollback included), as a person sees it. */
export interface Screen {
  /** Each line's visible text (wrapped lines joined), right-trimmed; concealed cells blank. */
  lines: string[];
  /** The terminal's window title (OSC 0/2), empty when never set. */
  title: string;
}

/** Feeds `output` (the bytes a pty received, as text) to an emulator and reads the screen. */
export async function renderScreen(output: string, cols = 160, rows = 50): Promise<Screen> {
  const terminal = new xterm.Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true });
  let title = "";
  terminal.onTitleChange((text) => title = text);
  await new Promise<void>((resolve) => terminal.write(output, resolve));
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    if (!line) continue;
    let text = "";
    for (let x = 0; x < line.length; x++) {
      const cell = line.getCell(x);
      if (!cell || cell.getWidth() === 0) continue;
      text += cell.isInvisible() ? " ".repeat(cell.getWidth()) : cell.getChars() || " ";
    }
    // A line the terminal wrapped continues the one above: one logical line, as printed.
    if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  terminal.dispose();
  return { lines: lines.map((line) => line.trimEnd()), title };
}

/**
 * The rows a person sees on a `rows` × `cols` terminal after `output` (the viewport, not the
 * scrollback), trailing blanks cut: what is on screen at the moment of a question.
 */
export async function viewportRows(output: string, rows: number, cols = 80): Promise<string[]> {
  const terminal = new xterm.Terminal({ rows, cols, allowProposedApi: true });
  await new Promise<void>((resolve) => terminal.write(output, resolve));
  const buffer = terminal.buffer.active;
  const shown = Array.from(
    { length: rows },
    (_, i) => buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? "",
  );
  terminal.dispose();
  return shown;
}
