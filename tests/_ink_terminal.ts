/**
 * An Ink component on a pretend terminal, in this process: keys go in as the bytes a terminal
 * sends (escape sequences, bracketed pastes, kitty protocol reports) through Ink's own input
 * parsing, and the screen is what a terminal emulator makes of Ink's output. For testing a
 * component's keys without a pseudo-terminal, and for timing key-to-screen.
 *
 * @module
 */
import { PassThrough, Writable } from "node:stream";
import type { ReactElement } from "react";
import { render } from "ink";
import { viewportRows } from "./_screen.ts";

/** A component running on a pretend terminal. */
export interface InkTerminal {
  /** Sends `chunks` one read at a time, letting Ink draw after each. */
  keys(...chunks: string[]): Promise<void>;
  /** Sends `bytes` as one read and returns at once. */
  send(bytes: string): void;
  /** Resolves at Ink's next write to the terminal. */
  nextWrite(): Promise<void>;
  /** The rows on screen now, blank ones dropped, trailing blanks cut, joined by newlines. */
  screen(): Promise<string>;
  rerender(element: ReactElement): void;
  close(): Promise<void>;
}

/** Long enough for Ink to read a key (a lone Esc waits 20 ms) and draw the result. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

/** Renders `element` with Ink on a pretend `columns` × `rows` terminal. */
export async function inkOnTerminal(
  element: ReactElement,
  { columns = 80, rows = 24 } = {},
): Promise<InkTerminal> {
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: () => stdin,
    ref: () => stdin,
    unref: () => stdin,
  });
  let output = "";
  let written: (() => void)[] = [];
  const stdout = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        output += String(chunk);
        const waiting = written;
        written = [];
        waiting.forEach((wake) => wake());
        done();
      },
    }),
    { isTTY: true, columns, rows },
  );
  const app = render(element, {
    // deno-lint-ignore no-explicit-any
    stdin: stdin as any,
    // deno-lint-ignore no-explicit-any
    stdout: stdout as any,
    exitOnCtrlC: false,
    patchConsole: false,
    interactive: true,
  });
  await settle();
  return {
    async keys(...chunks) {
      for (const chunk of chunks) {
        stdin.write(chunk);
        await settle();
      }
    },
    send: (bytes) => void stdin.write(bytes),
    nextWrite: () => new Promise<void>((wake) => written.push(wake)),
    async screen() {
      await settle();
      // A terminal's line discipline turns each "\n" into "\r\n"; this pretend one has none.
      const shown = await viewportRows(output.replaceAll("\n", "\r\n"), rows, columns);
      return shown.map((row) => row.trimEnd()).filter((row) => row !== "").join("\n");
    },
    rerender: (next) => app.rerender(next),
    async close() {
      app.unmount();
      await app.waitUntilExit();
    },
  };
}
