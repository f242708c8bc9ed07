import assert from "node:assert/strict";
import { fitColumns, retryText, shownDelay } from "./retry_line.ts";

Deno.test("a retry reads as its cause, which retry of how many, and the wait", () => {
  const event = { type: "retry", attempt: 2, maxRetries: 4, reason: "HTTP 503: busy" } as const;
  assert.equal(retryText({ ...event, delayMs: 2_000 }), "HTTP 503: busy; retry 2 of 4 in 2 s");
  assert.equal(shownDelay(20), "20 ms");
  assert.equal(shownDelay(1_500), "1.5 s");
  assert.equal(shownDelay(8_000), "8 s");
});

Deno.test("a status line is cut to the terminal's width, wide characters counting two", () => {
  assert.equal(fitColumns("short", 10), "short");
  assert.equal(fitColumns("exactly 10", 10), "exactly 10");
  assert.equal(fitColumns("a line that is too long", 10), "a line th…");
  assert.equal(fitColumns("日本語のテキスト", 7), "日本語…");
});
