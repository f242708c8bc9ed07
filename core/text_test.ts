import assert from "node:assert/strict";
import { test } from "node:test";
import { clipChars, groupDigits } from "./text.ts";

test("counts are written with digits grouped by commas, as en-US writes them", () => {
  const values = [0, 7, 999, 1_000, 12_345, 999_999, 1_000_000, 123_456_789, -1_234, -123];
  for (const value of [...values, Number.MAX_SAFE_INTEGER, 1.5, 1234.5678, NaN, Infinity]) {
    assert.equal(groupDigits(value), value.toLocaleString("en-US"), String(value));
  }
  assert.equal(groupDigits(1_234_567), "1,234,567");
});

test("clipChars cuts at code points and marks the cut; text that fits is whole", () => {
  assert.equal(clipChars("héllo", 5), "héllo");
  assert.equal(clipChars("héllo", 2), "hé…");
  assert.equal(clipChars("😀😀😀", 1), "😀…");
});
