/**
 * The stdin Ink reads keys from: fed by hel's one reader of standard input (cli/terminal.ts
 * `LineReader`), which may already have read a trust question's answer, so keys never go to a
 * second reader; raw mode is set through hel's surroundings.
 *
 * @module
 */
import { Readable } from "node:stream";
import { surroundings } from "../../kit/surroundings.ts";
import type { LineReader } from "../terminal.ts";

/** Node's stdin, as far as Ink uses it. */
export type InkStdin = Readable & {
  isTTY: true;
  setRawMode(raw: boolean): InkStdin;
  ref(): InkStdin;
  unref(): InkStdin;
};

/** A stdin for Ink fed by `reader`; call `dispose` when the chat ends (raw mode goes off). */
export function inkStdin(reader: LineReader): { stdin: InkStdin; dispose(): void } {
  const stream = new Readable({ read() {}, encoding: "utf8" }) as InkStdin;
  let raw = false;
  const setRaw = (on: boolean) => {
    raw = on;
    surroundings().stdin.setRaw?.(on);
  };
  Object.assign(stream, {
    isTTY: true,
    setRawMode: (on: boolean) => {
      setRaw(on);
      return stream;
    },
    ref: () => stream,
    unref: () => stream,
  });
  const stop = reader.forward((text) => stream.push(text));
  return {
    stdin: stream,
    dispose() {
      stop();
      if (raw) setRaw(false);
    },
  };
}
