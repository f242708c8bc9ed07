/**
 * Assistant content as text. Chat Completions gives a string, but some OpenAI-compatible
 * servers (Mistral's reasoning models, some proxies) send a list of typed parts instead:
 * `[{ "type": "thinking", ... }, { "type": "text", "text": "..." }]`. hel keeps the answer
 * text and leaves the rest, so the terminal never shows "[object Object]".
 *
 * @module
 */

/** The text of `content` (a string, a list of parts, or nothing); "" when it has none. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => {
    if (typeof part === "string") return part;
    const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown };
    return (type === "text" || type === "output_text") && typeof text === "string" ? text : "";
  }).join("");
}
