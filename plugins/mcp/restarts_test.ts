import assert from "node:assert/strict";
import { MAX_RESTARTS, RESTART_BACKOFF_MS, RestartPolicy } from "./restarts.ts";

Deno.test("three restarts, each after a longer back-off counted from the loss; then given up", () => {
  const policy = new RestartPolicy();
  const waits: number[] = [];
  let now = 1_000_000;
  for (let attempt = 1; attempt <= MAX_RESTARTS; attempt++) {
    policy.lost(now);
    const plan = policy.next(now + 50); // the model took 50 ms to call again
    assert.ok(plan.restart);
    assert.equal(plan.attempt, attempt);
    waits.push(plan.waitMs);
    now += 60_000;
  }
  assert.deepEqual(waits, RESTART_BACKOFF_MS.map((ms) => Math.max(0, ms - 50)));
  assert.equal(policy.gaveUp, false);
  policy.lost(now);
  assert.deepEqual(policy.next(now), { restart: false });
  assert.equal(policy.gaveUp, true);
  assert.equal(policy.restarts, MAX_RESTARTS);
  assert.deepEqual(policy.next(now + 1e9), { restart: false });
});

Deno.test("a model that calls again long after the loss does not wait", () => {
  const policy = new RestartPolicy();
  policy.lost(0);
  const plan = policy.next(10_000);
  assert.ok(plan.restart && plan.waitMs === 0);
});
