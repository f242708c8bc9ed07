import assert from "node:assert/strict";
import { CallsInFlight } from "./call_clock.ts";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("a held call's idle timer stops while the question is open and goes on with the time it had left", async () => {
  const calls = new CallsInFlight();
  let idleAt = 0;
  const started = Date.now();
  const timer = calls.begin(200, () => idleAt = Date.now() - started);
  await pause(100);
  const hold = calls.hold()!;
  await pause(300); // longer than the whole timeout
  assert.equal(idleAt, 0, "no timeout while the question is open");
  hold.release();
  await pause(200);
  // Generous above: timers run late on a busy machine, never early.
  assert.ok(idleAt >= 380 && idleAt < 2_000, `timed out after ${idleAt} ms`);
  timer.end();
});

Deno.test("progress restarts the timer, a call begun during a hold starts held, and ending stops it", async () => {
  const calls = new CallsInFlight();
  let fired = 0;
  const first = calls.begin(600, () => fired++);
  await pause(400);
  first.restart();
  await pause(400);
  assert.equal(fired, 0, "the restart gave it the full 600 ms again");
  const hold = calls.hold()!;
  const second = calls.begin(50, () => fired++);
  await pause(120);
  assert.equal(fired, 0);
  first.end();
  second.end();
  hold.release();
  await pause(200);
  assert.equal(fired, 0, "ended timers never fire");
});

Deno.test("a hold's signal aborts once every call in flight when it began has ended; with none there is no hold", async () => {
  const calls = new CallsInFlight();
  assert.equal(calls.hold(), undefined);
  const a = calls.begin(10_000, () => {});
  const b = calls.begin(10_000, () => {});
  const hold = calls.hold()!;
  a.end();
  await pause(0);
  assert.equal(hold.signal.aborted, false);
  b.end();
  await pause(0);
  assert.equal(hold.signal.aborted, true);
  hold.release();
  assert.equal(calls.hold(), undefined, "ended calls are no longer in flight");
});
