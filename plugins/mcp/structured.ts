/**
 * A structured result (`structuredContent`) as compact JSON for the model, without the base64
 * a binary block of the same result already carries: servers such as server-filesystem's
 * `read_media_file` repeat an image's data there, which would reach the model as hundreds of
 * kilobytes of text. Such a string is replaced by a note naming the block it repeats.
 *
 * @module
 */
import type { Binary } from "./content_blocks.ts";

/** Data shorter than this is left alone: a few bytes are cheaper than a note. */
const MIN_REPEAT_CHARS = 64;

/** A binary block of the result: its data, summary and index in `content`. */
export type IndexedBinary = Binary & { index: number };

/** `structured` as compact JSON, each string holding a binary block's data replaced. */
export function withoutRepeatedData(
  structured: Record<string, unknown>,
  binaries: readonly IndexedBinary[],
): string {
  const repeated = binaries.filter((binary) => binary.data.length >= MIN_REPEAT_CHARS);
  if (repeated.length === 0) return JSON.stringify(structured);
  return JSON.stringify(structured, (_key, value) => {
    if (typeof value !== "string" || value.length < MIN_REPEAT_CHARS) return value;
    // Also inside a longer string: a data URL (`data:image/png;base64,...`) repeats it too.
    const same = repeated.find((binary) => value.includes(binary.data));
    return same
      ? `[${same.summary} of base64 data, the same as content[${same.index}]; not repeated]`
      : value;
  });
}
