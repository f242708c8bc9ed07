import assert from "node:assert/strict";
import { columnsOf, wrapColumns, wrapWords } from "./wrap_columns.ts";

Deno.test("rows are cut at the width, counting wide characters as two columns", () => {
  assert.deepEqual(wrapColumns("abcdefg", 3), ["abc", "def", "g"]);
  assert.deepEqual(wrapColumns("", 3), [""]);
  assert.deepEqual(wrapColumns("가나다라", 5), ["가나", "다라"]);
  assert.equal(columnsOf("a가"), 3);
});

Deno.test("words wrap between words, with the rows after the first indented", () => {
  assert.deepEqual(wrapWords("Yes, and don't ask again this session", 16, 3), [
    "Yes, and don't",
    "   ask again",
    "   this session",
  ]);
  assert.deepEqual(wrapWords("a verylongwordhere b", 8, 2), [
    "a",
    "  verylo",
    "  ngword",
    "  here b",
  ]);
  for (const row of wrapWords("x ".repeat(50) + "y".repeat(30), 10, 4)) {
    assert.ok(columnsOf(row) <= 10, row);
  }
});

Deno.test("a megabyte-long line wraps in linear time", () => {
  const started = performance.now();
  const rows = wrapColumns("x".repeat(1_000_000), 80);
  assert.equal(rows.length, 12_500);
  assert.ok(performance.now() - started < 2000);
});
