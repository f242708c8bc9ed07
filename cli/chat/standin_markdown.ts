/**
 * TEMPORARY stand-in for cli/chat/markdown.ts (being written on branch tui-markdown), with the
 * contract's API: paragraphs as they are. Deleted once the real renderer lands on main.
 *
 * @module
 */

/** Options of the renderer. */
export interface MarkdownOptions {
  width: number;
  color: boolean;
}

/** The text with blank-line runs kept as they are (no markdown yet). */
export function renderMarkdown(text: string, _options: MarkdownOptions): string {
  return text.trimEnd();
}

/** Streams paragraphs: one settles once a blank line follows it. */
export class MarkdownStream {
  #text = "";
  #taken = 0;
  constructor(_options: MarkdownOptions) {}
  push(delta: string): void {
    this.#text += delta;
  }
  takeSettled(): string[] {
    const end = this.#text.lastIndexOf("\n\n");
    if (end < this.#taken) return [];
    const blocks = this.#text.slice(this.#taken, end).split("\n\n").filter((b) => b !== "");
    this.#taken = end + 2;
    return blocks;
  }
  live(): string {
    return this.#text.slice(this.#taken);
  }
  finish(): string[] {
    const rest = this.#text.slice(this.#taken).split("\n\n").filter((b) => b.trim() !== "");
    this.#taken = this.#text.length;
    return rest;
  }
}
