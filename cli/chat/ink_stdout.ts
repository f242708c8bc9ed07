/**
 * The stdout Ink draws on: a stream whose writes go through hel's output layer
 * (`kit/output.ts` {@link writeFrame}), and which reports the terminal's size and its changes
 * the way Node's stdout does (`columns`, `rows`, `isTTY`, a `resize` event).
 *
 * Ink's frames are written as they are: they carry hel's own controls (cursor moves, colours,
 * boxes) around text the chat store neutralised on the way in, so no outside text reaches the
 * terminal raw.
 *
 * @module
 */
import { Writable } from "node:stream";
import { writeFrame } from "../../kit/output.ts";

/** The terminal's size, as the chat sees it. */
export interface TerminalSize {
  columns: number;
  rows: number;
}

/** Node's stdout, as far as Ink uses it. */
export type InkStdout = Writable & TerminalSize & { isTTY: true };

/** A stdout for Ink; `size` reads the terminal's size. Call `dispose` when the chat ends. */
export function inkStdout(size: () => TerminalSize): { stdout: InkStdout; dispose(): void } {
  const stream = new Writable({
    decodeStrings: false,
    write(chunk, _encoding, done) {
      writeFrame(typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk));
      done();
    },
  });
  let current = size();
  Object.defineProperties(stream, {
    isTTY: { value: true },
    columns: { get: () => current.columns },
    rows: { get: () => current.rows },
  });
  const onResize = () => {
    current = size();
    stream.emit("resize");
  };
  const watching = Deno.build.os !== "windows";
  if (watching) Deno.addSignalListener("SIGWINCH", onResize);
  return {
    stdout: stream as InkStdout,
    dispose: () => {
      if (watching) Deno.removeSignalListener("SIGWINCH", onResize);
    },
  };
}
