import assert from "node:assert/strict";
import { powerOfTen, WindowBudget } from "./rate_limit.ts";

Deno.test("a window lets its limit pass, tells the first refusal apart and counts the rest", () => {
  let now = 0;
  const budget = new WindowBudget(2, 1000, () => now);
  assert.deepEqual(
    [budget.take(), budget.take(), budget.take(), budget.take()],
    ["pass", "pass", "first-drop", "drop"],
  );
  assert.equal(budget.takeDropped(), 2);
  assert.equal(budget.takeDropped(), 0);
  now = 999;
  assert.equal(budget.take(), "drop");
  // A new window starts at the first event after the last one ended.
  now = 1000;
  assert.deepEqual([budget.take(), budget.take(), budget.take()], ["pass", "pass", "first-drop"]);
});

Deno.test("powers of ten pick the 1st, 10th, 100th, ... of alike events", () => {
  assert.deepEqual(
    [1, 2, 9, 10, 11, 100, 1000, 1001].filter(powerOfTen),
    [1, 10, 100, 1000],
  );
});
