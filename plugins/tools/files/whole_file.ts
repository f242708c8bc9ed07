/**
 * Loading a whole text file, for the tools that must (`search_replace`), within a size limit.
 * Without one, a 2 GiB sparse file the model created with `truncate` cost 6.4 GB of memory:
 * the bytes, their decoded string (two bytes per character) and the edited copy all live at
 * once. 32 MiB covers the largest text files a person edits by hand or a model should edit
 * whole (lockfiles, generated bundles and SQL dumps run to a few MiB) and keeps one call under
 * about 200 MB at worst; larger files are worked on in parts, and the error says how.
 *
 * @module
 */
import { groupDigits } from "../../../core/mod.ts";

/** Files larger than this are not loaded whole. */
export const WHOLE_FILE_MAX_BYTES = 32 * 1024 * 1024;

/** `n` with thousands separators, for messages. */
export const bytesText = (n: number) => `${groupDigits(n)} bytes`;

/** A limit for messages: whole MiB as such, else in bytes. */
export const limitText = (n: number) =>
  n % (1024 * 1024) === 0 ? `${n / 1024 / 1024} MiB` : bytesText(n);

/** The model-facing refusal for a file of `size` bytes that `tool` would have to load whole. */
export function tooLargeText(tool: string, shown: string, size: number): string {
  return `${shown} is ${bytesText(size)}, larger than the ${
    limitText(WHOLE_FILE_MAX_BYTES)
  } ${tool} loads whole, so nothing was changed. Work on it in parts instead: find the ` +
    `place with grep, read around it with read_file (start_line, max_lines), and change it ` +
    `with a command in bash, e.g. sed -i 's/old/new/' ${shown} (or a short script)`;
}

/**
 * Reads the open `file` (`size` bytes when it was opened) as UTF-8 text, or says why not: over
 * the limit, or not valid UTF-8.
 */
export async function readWholeText(
  file: Deno.FsFile,
  size: number,
  tool: string,
  shown: string,
): Promise<{ ok: true; text: string } | { ok: false; text: string }> {
  if (size > WHOLE_FILE_MAX_BYTES) return { ok: false, text: tooLargeText(tool, shown, size) };
  const bytes = new Uint8Array(size);
  let filled = 0;
  while (filled < bytes.length) {
    const n = await file.read(bytes.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  try {
    const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    return { ok: true, text: decoder.decode(bytes.subarray(0, filled)) };
  } catch {
    return { ok: false, text: `${shown} is not valid UTF-8 text; ${tool} edits text files only` };
  }
}
