/**
 * Bounding what hooks tell the model. Feedback and block reasons above 2,500 estimated tokens
 * are saved to the session's spill folder and replaced by a head, a note naming the file,
 * and a tail.
 *
 * @module
 */
import { codePointLength, estimateTokens, headChars, tailChars } from "../../core/mod.ts";

/** Hook text estimated above this many tokens is spilled. */
export const FEEDBACK_LIMIT_TOKENS = 2_500;
const PREVIEW_CHARS = 8_000;

/** Returns `text` when small enough, else a preview that fits and points at the saved text. */
export async function boundFeedback(
  text: string,
  spill: (text: string) => Promise<string | undefined>,
): Promise<string> {
  if (estimateTokens(text) <= FEEDBACK_LIMIT_TOKENS) return text;
  const path = await spill(text);
  const total = codePointLength(text);
  const note = (omitted: number) =>
    path === undefined
      ? `[hook output too long: ${omitted} characters omitted; it could not be saved]`
      : `[hook output too long: ${omitted} characters omitted. The full text is saved at ` +
        `${path}; read it with read_file using start_line and max_lines.]`;
  // Escapes can make the estimate of a preview larger than its length suggests: shrink until
  // it fits.
  for (let keep = Math.min(PREVIEW_CHARS, total); keep > 0; keep = Math.floor(keep / 2)) {
    const headCount = Math.floor(keep * 4 / 5);
    const preview = `${headChars(text, headCount)}\n${note(total - keep)}\n` +
      tailChars(text, keep - headCount);
    if (estimateTokens(preview) <= FEEDBACK_LIMIT_TOKENS) return preview;
  }
  return note(total);
}
