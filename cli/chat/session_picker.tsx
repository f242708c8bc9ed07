/**
 * The `hel --resume` picker on a terminal, before the run starts: the project's sessions as a
 * table ({@link Picker} with a header), drawn with Ink through hel's output layer and fed keys
 * by hel's one reader of stdin. ↑/↓ move, Enter chooses, Esc or Ctrl-C gives up. Loaded with a
 * dynamic `import()` only when the picker opens.
 *
 * @module
 */
import chalk from "chalk";
import { render, useInput } from "ink";
import type { LineReader } from "../terminal.ts";
import { inkStdin } from "./ink_stdin.ts";
import { inkStdout, type TerminalSize } from "./ink_stdout.ts";
import { Picker, type PickerProps } from "./picker.tsx";

/** What the picker shows; labels and header are neutralised by the caller. */
export interface ScreenPickerOptions {
  title: string;
  header: string;
  labels: readonly string[];
  color: boolean;
  size(): TerminalSize;
  reader: LineReader;
}

/** The picker, with Ctrl-C as a way out: in raw mode it is a key, not a signal. */
function CancellablePicker(props: PickerProps) {
  useInput((input, key) => {
    if (key.ctrl && input === "c") props.onChoose(undefined);
  });
  return <Picker {...props} />;
}

/** Draws the picker until the person chooses (the row's index) or gives up (undefined). */
export async function pickOnScreen(options: ScreenPickerOptions): Promise<number | undefined> {
  chalk.level = options.color ? Math.max(chalk.level, 1) as 1 | 2 | 3 : 0;
  const terminal = inkStdout(options.size);
  const keys = inkStdin(options.reader);
  let choose: (index: number | undefined) => void = () => {};
  const chosen = new Promise<number | undefined>((resolve) => choose = resolve);
  try {
    const instance = render(
      <CancellablePicker
        title={options.title}
        header={options.header}
        labels={options.labels}
        rows={Math.max(3, options.size().rows - 2)}
        color={options.color}
        onChoose={(index) => choose(index)}
      />,
      {
        stdout: terminal.stdout,
        stdin: keys.stdin,
        patchConsole: false,
        exitOnCtrlC: false,
        // As in the chat (ink_chat.tsx): hel checked that both ends are terminals.
        interactive: true,
      },
    );
    const index = await chosen;
    // The list goes; what follows (the chat, an answer) starts where it was.
    instance.clear();
    instance.unmount();
    await instance.waitUntilExit();
    return index;
  } finally {
    keys.dispose();
    terminal.dispose();
  }
}
