import assert from "node:assert/strict";
import { RefreshScheduler } from "./refresh_scheduler.ts";

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

Deno.test("refreshes: a burst makes one, one running makes one more after it, never two of one list at once", async () => {
  const started: string[] = [];
  let running = 0;
  let most = 0;
  const scheduler = new RefreshScheduler(async (key) => {
    started.push(key);
    most = Math.max(most, ++running);
    await pause(60);
    running--;
  }, { debounceMs: 20, minGapMs: 0 });
  for (let i = 0; i < 100; i++) scheduler.notify("tools a");
  scheduler.notify("tools b");
  await pause(40);
  assert.deepEqual(started.sort(), ["tools a", "tools b"]);
  // Announcements while "tools a" refreshes: one more refresh, after it.
  for (let i = 0; i < 10; i++) scheduler.notify("tools a");
  await scheduler.settled(2_000);
  assert.deepEqual(started.filter((key) => key === "tools a").length, 2);
  assert.equal(most, 2, "two lists refresh at once, but never one list twice");
  scheduler.close();
});

Deno.test("refreshes of one list start at least the gap apart, and none after close", async () => {
  const starts: number[] = [];
  const scheduler = new RefreshScheduler(() => {
    starts.push(Date.now());
    return Promise.resolve();
  }, { debounceMs: 10, minGapMs: 300 });
  scheduler.notify("k");
  await scheduler.settled(2_000);
  scheduler.notify("k");
  await scheduler.settled(2_000);
  assert.equal(starts.length, 2);
  assert.ok(starts[1]! - starts[0]! >= 290, `${starts[1]! - starts[0]!} ms apart`);
  scheduler.notify("k");
  scheduler.close();
  await pause(400);
  assert.equal(starts.length, 2);
});

Deno.test("waiting for refreshes gives up after its bound", async () => {
  const scheduler = new RefreshScheduler(() => pause(1_000), { debounceMs: 0, minGapMs: 0 });
  scheduler.notify("slow");
  await pause(20);
  const started = Date.now();
  await scheduler.settled(100);
  assert.ok(Date.now() - started < 500);
  scheduler.close();
  await pause(1_000);
});

Deno.test("waiting covers the announcements heard so far, not the ones that keep coming", async () => {
  let refreshes = 0;
  const scheduler = new RefreshScheduler(async () => {
    refreshes++;
    await pause(30);
  }, { debounceMs: 10, minGapMs: 200 });
  scheduler.notify("noisy");
  const spam = setInterval(() => scheduler.notify("noisy"), 5);
  const started = Date.now();
  await scheduler.settled(3_000);
  const waited = Date.now() - started;
  clearInterval(spam);
  assert.equal(refreshes, 1);
  assert.ok(waited < 300, `waited ${waited} ms`);
  scheduler.close();
});
