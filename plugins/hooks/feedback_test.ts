import assert from "node:assert/strict";
import { estimateTokens } from "../../core/mod.ts";
import { boundFeedback, FEEDBACK_LIMIT_TOKENS } from "./feedback.ts";

Deno.test("feedback within 2,500 estimated tokens is unchanged and not saved", async () => {
  const saved: string[] = [];
  const text = "x".repeat(9_000); // 9,002 JSON chars → 2,251 tokens
  assert.equal(
    await boundFeedback(text, (t) => {
      saved.push(t);
      return Promise.resolve("/nowhere");
    }),
    text,
  );
  assert.deepEqual(saved, []);
});

Deno.test("larger feedback is saved whole and previewed with head, note and tail", async () => {
  const saved: string[] = [];
  const text = "HEAD" + "m".repeat(20_000) + "TAIL";
  const bounded = await boundFeedback(text, (t) => {
    saved.push(t);
    return Promise.resolve("/s/spill/1.txt");
  });
  assert.deepEqual(saved, [text]);
  assert.ok(estimateTokens(bounded) <= FEEDBACK_LIMIT_TOKENS);
  assert.ok(bounded.startsWith("HEAD"));
  assert.ok(bounded.endsWith("TAIL"));
  assert.match(bounded, /characters omitted\. The full text is saved at \/s\/spill\/1\.txt/);
});

Deno.test("escape-heavy feedback still fits; unsaved feedback says so", async () => {
  const text = "\u0001".repeat(20_000); // each escapes to six JSON characters
  const bounded = await boundFeedback(text, () => Promise.resolve(undefined));
  assert.ok(estimateTokens(bounded) <= FEEDBACK_LIMIT_TOKENS);
  assert.match(bounded, /it could not be saved/);
});
