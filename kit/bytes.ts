/**
 * Byte arrays joined into one: reading a file or a stream in chunks ends here.
 *
 * @module
 */

/** One new array holding `parts` in order (a copy, even of a single part). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}
