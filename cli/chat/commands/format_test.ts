import assert from "node:assert/strict";
import { age, oneLine, table } from "./format.ts";

Deno.test("a table aligns its texts after the longest label and keeps later lines under them", () => {
  assert.equal(
    table([["model", "m"], ["mcp", "fs: connected\nnotes: skipped"]]),
    "  model  m\n  mcp    fs: connected\n         notes: skipped",
  );
});

Deno.test("ages read as minutes, hours or days ago", () => {
  const now = 10 * 86_400_000;
  assert.equal(age(now - 30_000, now), "just now");
  assert.equal(age(now - 12 * 60_000, now), "12 min ago");
  assert.equal(age(now - 3 * 3_600_000 - 59_000, now), "3 h ago");
  assert.equal(age(now - 2 * 86_400_000, now), "2 d ago");
  assert.equal(age(now + 5_000, now), "just now");
});

Deno.test("one line of a text is its first line, spaces joined, cut with an ellipsis", () => {
  assert.equal(oneLine("  a   b  ", 10), "a b");
  assert.equal(oneLine("first\nsecond", 10), "first …");
  assert.equal(oneLine("abcdefghijkl", 5), "abcd…");
});
