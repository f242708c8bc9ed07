/**
 * A server tool's description as the model gets it. It is sent whole with every request while
 * the tool is loaded, so one over {@link MAX_DESCRIPTION_CHARS} is cut, with a line saying it
 * was and how long it is. Claude Code cuts at 2,048 characters without a word, which broke
 * tools that list an API of some 9,000 characters in their description; 8,000 keeps those
 * readable, and it is more than the longest real tool in fixtures/mcp/catalogue (5,900
 * characters with its schema), so ordinary tools are not touched.
 *
 * @module
 */
import { clipChars, codePointLength, groupDigits } from "../../core/mod.ts";

/** Characters (code points) of a description the model gets at most. */
export const MAX_DESCRIPTION_CHARS = 8_000;

/** `description` trimmed, and cut with a marker when over {@link MAX_DESCRIPTION_CHARS}. */
export function modelDescription(description: string): string {
  const text = description.trim();
  // No more UTF-16 units than the bound means no more code points either.
  if (text.length <= MAX_DESCRIPTION_CHARS) return text;
  const length = codePointLength(text);
  if (length <= MAX_DESCRIPTION_CHARS) return text;
  // The bound's code points lie within twice as many units; only those are split into points
  // (a description may be megabytes long).
  const head = clipChars(text.slice(0, 2 * MAX_DESCRIPTION_CHARS + 1), MAX_DESCRIPTION_CHARS);
  return `${head}\n[hel: this description is ${groupDigits(length)} characters; only its ` +
    `first ${groupDigits(MAX_DESCRIPTION_CHARS)} are shown]`;
}
