/**
 * Server instructions: what a server says about using it, in the `instructions` of its
 * `initialize` answer (when to prefer which tool, what to call first). hel passes them on in
 * the system message, as peers do, because they help the model choose what to load. They are
 * server text: cut to a bounded length and stripped of terminal and bidi controls.
 *
 * @module
 */
import { codePointLength, headChars } from "../../core/mod.ts";
import { escapeControlCharacters } from "../../kit/mod.ts";

/** The most characters of one server's instructions the model sees. */
export const INSTRUCTIONS_CHARS = 2_000;

/**
 * The system-message part for servers that sent instructions (`server name → text`), or
 * undefined when none did.
 */
export function instructionsSection(instructions: ReadonlyMap<string, string>): string | undefined {
  const parts: string[] = [];
  for (const [server, text] of [...instructions].sort(([a], [b]) => a < b ? -1 : 1)) {
    const trimmed = text.trim();
    if (trimmed === "") continue;
    const shown = codePointLength(trimmed) > INSTRUCTIONS_CHARS
      ? `${headChars(trimmed, INSTRUCTIONS_CHARS)}… [cut at ${INSTRUCTIONS_CHARS} characters]`
      : trimmed;
    // A closing tag inside the text must not end the block early.
    const safe = escapeControlCharacters(shown).replaceAll(
      "</server-instructions>",
      "</ server-instructions>",
    );
    parts.push(`<server-instructions server="${server}">\n${safe}\n</server-instructions>`);
  }
  if (parts.length === 0) return undefined;
  return "Instructions the MCP servers give for using their tools (server text, not the " +
    `user's):\n${parts.join("\n")}`;
}
