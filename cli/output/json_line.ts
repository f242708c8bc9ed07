/**
 * One JSON value as one line of text that is safe on a terminal. `JSON.stringify` escapes C0
 * controls but leaves DEL, C1 controls (CSI is U+009B), line separators, bidi controls and
 * invisible characters as they are; model text carries such characters, and a JSON line is
 * often read on a terminal (`hel --output-format json … | less`). This escapes every one of
 * them as `\uXXXX` too: inside a JSON string that is the same text, so nothing is lost.
 *
 * @module
 */
import { writeOut } from "../../kit/output.ts";

/**
 * DEL, C1 controls, and the characters `escapeControlCharacters` shows as visible: soft hyphen,
 * bidi controls, zero-width and line/paragraph separators, BOM, interlinear annotations,
 * Unicode tags and supplementary variation selectors. JSON.stringify has escaped C0 already.
 */
const UNSAFE =
  /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/gu;

/** Each UTF-16 unit of `character` as a JSON `\uXXXX` escape (a pair above the BMP). */
function escaped(character: string): string {
  let out = "";
  for (let i = 0; i < character.length; i++) {
    out += `\\u${character.charCodeAt(i).toString(16).padStart(4, "0")}`;
  }
  return out;
}

/**
 * `value` as JSON on one line, with no character that could drive or disguise a terminal.
 * The characters escaped can only occur inside JSON strings, where an escape means the same.
 */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, escaped);
}

/** Writes `value` to stdout as one JSON line, in one write, so a reader gets it whole. */
export function writeJsonLine(value: unknown): void {
  writeOut(`${jsonLine(value)}\n`);
}
