/**
 * The size limit of the context file (`HEL.md`). Its text goes into every request's system
 * message, and the model can write the file: a 5 MB `HEL.md` made each later request 1.35 M
 * tokens. At most {@link CONTEXT_FILE_MAX_BYTES} go to the model, cut at a line break, with a
 * note saying where the rest is; the person is warned. Only that much is read from disk.
 *
 * @module
 */
import { fileStart } from "../kit/file_digest.ts";
import type { FileReading } from "../core/file_reading.ts";
import { groupDigits } from "../core/text.ts";

/**
 * 32 KiB (about 8,000 tokens, the default of Codex's `project_doc_max_bytes` too): room for
 * the conventions and commands a project file should hold, small next to a model's window.
 */
export const CONTEXT_FILE_MAX_BYTES = 32 * 1024;

/**
 * The text of the context file at `path` (shown to the model as `name`) for the system
 * message: whole when within `limit` bytes, else its first lines within the limit and a note
 * saying where the rest is (and how to read it, given `reading`); `warn` tells the person then.
 */
export async function boundedContextText(
  path: string,
  name: string,
  warn: (text: string) => void,
  reading?: FileReading,
  limit = CONTEXT_FILE_MAX_BYTES,
): Promise<string> {
  const start = await fileStart(path, limit);
  if (!start) throw new Error(`${path} is not a regular file`);
  const { bytes } = start;
  const decode = (part: Uint8Array) => new TextDecoder().decode(part);
  if (start.complete) return decode(bytes);
  // Cut after the last line break within the limit, so no line is split; a first line longer
  // than the limit is cut at a code point.
  const newline = bytes.subarray(0, limit).lastIndexOf(0x0a);
  const kept = newline >= 0
    ? decode(bytes.subarray(0, newline + 1))
    : decode(bytes.subarray(0, limit)).replace(/\uFFFD+$/, "");
  const size = groupDigits((await Deno.stat(path)).size);
  const shown = limit % 1024 === 0 ? `${limit / 1024} KiB` : `${limit} bytes`;
  const lines = kept.split("\n").length - 1;
  warn(
    `context file ${path} is ${size} bytes, more than the ${shown} hel sends to the model; ` +
      `it gets the first ${shown} and a note that the rest is in the file. Shorten it to what ` +
      "every request needs",
  );
  const rest = reading
    ? `: ${reading.from(name, lines + 1)} when you need it`
    : `, from line ${lines + 1} on`;
  return `${kept}\n[${name} is ${size} bytes; only the part above (at most ${shown}) is ` +
    `shown here. The rest is in the file${rest}.]\n`;
}
