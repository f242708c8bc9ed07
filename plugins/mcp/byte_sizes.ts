/**
 * Sizes of what servers send, as hel writes them for the model and the person: one wording for
 * tool results, resources and prompts alike (`812 B`, `12.3 KiB`, `4.1 MiB`), in the units its
 * limits are written in (`64 MiB`), and the size base64 text decodes to, counted without
 * decoding it.
 *
 * @module
 */

/** `812 B`, `12.3 KiB`, `4.1 MiB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** The bytes a base64 text decodes to, without decoding it. */
export function base64Bytes(base64: string): number {
  // Padding is looked for after the line breaks are out: `YQ==\n` is one byte.
  const compact = base64.replace(/\s/g, "");
  const padding = compact.endsWith("==") ? 2 : compact.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor(compact.length * 3 / 4) - padding);
}
