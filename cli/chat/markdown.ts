/**
 * The model's markdown answer as terminal text, whole ({@link renderMarkdown}) or while it
 * streams ({@link MarkdownStream}), the two giving the same text. The answer is neutralised
 * first (core/neutralise.ts): escape sequences and control characters in it are shown, never
 * sent; the only escape sequences in the result are hel's own styling, and none without colour.
 *
 * Headings lose their `#` marks, code blocks their fences; emphasis, inline code, lists, block
 * quotes, rules and tables are drawn; code is highlighted; links show `text (url)`; every line
 * fits the width (from about 20 columns on; narrower, nested margins may not fit). Reference
 * links resolve to definitions given earlier in the answer, not later ones, so that what has
 * been shown never changes.
 *
 * @module
 */
import { type MarkdownOptions, MarkdownStream } from "./markdown_stream.ts";

export { type MarkdownOptions, MarkdownStream } from "./markdown_stream.ts";

/** `text` (a whole markdown answer) rendered for the terminal. */
export function renderMarkdown(text: string, options: MarkdownOptions): string {
  const stream = new MarkdownStream(options);
  stream.push(text);
  return stream.finish().join("\n");
}
