import assert from "node:assert/strict";
import { MAX_DESCRIPTION_CHARS, modelDescription } from "./tool_description.ts";

Deno.test("a description up to the bound is only trimmed", () => {
  const whole = "é".repeat(MAX_DESCRIPTION_CHARS);
  assert.equal(modelDescription(` ${whole}\n`), whole);
  // 8,000 emoji are 16,000 UTF-16 units but 8,000 characters: not cut.
  const emoji = "😀".repeat(MAX_DESCRIPTION_CHARS);
  assert.equal(modelDescription(emoji), emoji);
});

Deno.test("a longer description keeps its first 8,000 characters and says how long it was", () => {
  const cut = modelDescription("😀".repeat(MAX_DESCRIPTION_CHARS + 1));
  assert.equal(
    cut,
    `${"😀".repeat(MAX_DESCRIPTION_CHARS)}…\n[hel: this description is 8,001 characters; only ` +
      "its first 8,000 are shown]",
  );
  const huge = modelDescription("x".repeat(5_000_000));
  assert.ok(huge.startsWith("x".repeat(MAX_DESCRIPTION_CHARS) + "…\n"));
  assert.match(huge, /is 5,000,000 characters/);
});
