import assert from "node:assert/strict";
import {
  columns,
  cutToWidth,
  encodeLine,
  expandTabs,
  type Line,
  type Span,
  wrapSpans,
} from "./styled_text.ts";

const plain = (text: string): Span => ({ text, style: "" });
const texts = (lines: readonly Line[]) => lines.map((line) => line.map((s) => s.text).join(""));

Deno.test("wide characters and emoji take two columns, accents and joiners none", () => {
  assert.equal(columns("abc"), 3);
  assert.equal(columns("日本語"), 6);
  assert.equal(columns("👍🏽"), 2);
  assert.equal(columns("👨‍👩‍👧"), 2);
  assert.equal(columns("e\u0301"), 1);
  assert.equal(columns("─•→é"), 4);
});

Deno.test("text wraps at spaces, each line within the width", () => {
  const lines = wrapSpans([plain("the quick brown fox jumps over the lazy dog")], 10);
  assert.deepEqual(texts(lines), ["the quick", "brown fox", "jumps over", "the lazy", "dog"]);
});

Deno.test("a word in several styles stays one word, each part in its own style", () => {
  const lines = wrapSpans([plain("aaa "), { text: "bold", style: "1" }, plain("tail next")], 10);
  assert.deepEqual(texts(lines), ["aaa", "boldtail", "next"]);
  assert.deepEqual(lines[1], [{ text: "bold", style: "1" }, { text: "tail", style: "" }]);
});

Deno.test("a word longer than the width is cut, and text without spaces breaks anywhere", () => {
  assert.deepEqual(texts(wrapSpans([plain("ab abcdefghijkl")], 5)), ["ab ab", "cdefg", "hijkl"]);
  assert.deepEqual(texts(wrapSpans([plain("日本語の文章です")], 6)), ["日本語", "の文章", "です"]);
});

Deno.test("a newline ends a line, and runs of spaces show as one", () => {
  assert.deepEqual(texts(wrapSpans([plain("a   b\nc")], 20)), ["a b", "c"]);
});

Deno.test("cutting never puts a wide character across the edge", () => {
  assert.deepEqual(texts(cutToWidth([plain("a日本")], 2)), ["a", "日", "本"]);
});

Deno.test("tabs become spaces up to the next stop", () => {
  assert.equal(expandTabs("\tx\tyz\t!"), "    x   yz  !");
});

Deno.test("without colour a line is its text alone; with colour each style is reset after", () => {
  const line: Line = [plain("a "), { text: "b", style: "1" }, { text: "c", style: "1" }];
  assert.equal(encodeLine(line, false), "a bc");
  assert.equal(encodeLine(line, true), "a \x1b[1mbc\x1b[0m");
});
