/**
 * Large results: a tool result over the spill threshold is saved to a file in the session's
 * spill folder and the model gets its head, a notice saying where the rest is, and its tail.
 *
 * @module
 */
import { elideMiddle, estimateTokens } from "./text.ts";

/** Results estimated above this many tokens (about 50,000 characters) are spilled. */
export const SPILL_THRESHOLD_TOKENS = 12_500;
const HEAD_CHARS = 4_096;
const TAIL_CHARS = 1_024;

/** Saves text and returns the file's absolute path, or undefined when it could not. */
export type SpillWriter = (text: string) => Promise<string | undefined>;

/**
 * Returns `text` unchanged when it is small or cannot be saved; otherwise the head, a notice
 * naming the saved file and, given `readOn` (from the plugin offering file reading), how to
 * read on, and the tail.
 */
export async function spillIfLarge(
  text: string,
  save: SpillWriter,
  readOn?: string,
): Promise<string> {
  if (estimateTokens(text) <= SPILL_THRESHOLD_TOKENS) return text;
  const path = await save(text);
  if (path === undefined) return text;
  return elideMiddle(
    text,
    HEAD_CHARS,
    TAIL_CHARS,
    (omitted) =>
      `[Result too large: ${omitted} characters omitted here. The full result is saved at ${path}.` +
      `${readOn ? ` ${readOn}` : ""}]`,
  );
}
