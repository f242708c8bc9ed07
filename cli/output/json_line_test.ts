import assert from "node:assert/strict";
import { test } from "node:test";
import { jsonLine } from "./json_line.ts";
import { escapeControlCharacters } from "../../core/neutralise.ts";

/** Every character escapeControlCharacters shows as visible, and tab and newline. */
const UNSAFE_SAMPLES = [
  "\u0000",
  "\t",
  "\n",
  "\r",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u009b",
  "\u00ad",
  "\u061c",
  "\u200b",
  "\u200f",
  "\u2028",
  "\u2029",
  "\u202e",
  "\u2066",
  "\ufeff",
  "\ufff9",
  "\u{e0041}",
  "\u{e0100}",
];

test("jsonLine escapes every character that could drive or disguise a terminal", () => {
  const text = `a${UNSAFE_SAMPLES.join("b")}z`;
  const line = jsonLine({ text });
  // Only printable ASCII and ordinary text is left; the value is the same text.
  assert.equal(escapeControlCharacters(line), line);
  assert.doesNotMatch(line, /[\t\n]/);
  assert.equal(JSON.parse(line).text, text);
  assert.ok(line.includes("\\u009b") && line.includes("\\udb40\\udc41"), line);
});

test("jsonLine keeps other scripts and emoji; a joiner is escaped, the string the same", () => {
  const text = "naïve 日本語 👩‍💻 \u200d";
  // The zero-width joiner inside the emoji is escaped too: JSON keeps it, lossless.
  const line = jsonLine([text]);
  assert.equal(line, '["naïve 日本語 👩\\u200d💻 \\u200d"]');
  assert.deepEqual(JSON.parse(line), [text]);
});
