/** Scheduling pieces: the worker pool, shard slices and the command-line flags. */
import { deepEqual, equal, rejects, throws } from "node:assert/strict";
import { runPool } from "./parallel.ts";
import { parseSchedule } from "./schedule_options.ts";
import { parseShard, shardOf } from "./shard.ts";

Deno.test("the pool keeps at most N jobs running and starts them in list order", async () => {
  let running = 0, peak = 0;
  const started: number[] = [];
  await runPool([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
    started.push(item);
    peak = Math.max(peak, ++running);
    await new Promise((resolve) => setTimeout(resolve, item % 3));
    running--;
  });
  deepEqual(started, [1, 2, 3, 4, 5, 6, 7]);
  equal(peak, 3);
});

Deno.test("after a failure the pool starts nothing new, lets running jobs finish, then throws", async () => {
  const finished: number[] = [];
  await rejects(
    runPool([1, 2, 3, 4, 5], 2, async (item) => {
      if (item === 1) throw new Error("run 1 broke");
      await new Promise((resolve) => setTimeout(resolve, 5));
      finished.push(item);
    }),
    /run 1 broke/,
  );
  deepEqual(finished, [2]);
});

Deno.test("shards are disjoint, cover the plan and differ in size by at most one", () => {
  const plan = Array.from({ length: 10 }, (_, i) => i);
  const slices = [1, 2, 3].map((index) => shardOf(plan, { index, count: 3 }));
  deepEqual(slices, [[0, 3, 6, 9], [1, 4, 7], [2, 5, 8]]);
  deepEqual(shardOf(plan, undefined), plan);
  deepEqual(parseShard(" 2/3 "), { index: 2, count: 3 });
  for (const bad of ["0/3", "4/3", "3", "a/b", "1/0"]) {
    throws(
      () => parseShard(bad),
      /--shard .*: expected K\/N with 1 <= K <= N, e\.g\. --shard 2\/3/,
    );
  }
});

Deno.test("--rpm defaults to 60 with --parallel above 1 and to no limit otherwise", () => {
  deepEqual(parseSchedule({}), { parallel: 1, rpm: 0 });
  deepEqual(parseSchedule({ parallel: "4" }), { parallel: 4, rpm: 60 });
  deepEqual(parseSchedule({ parallel: "4", rpm: "0" }), { parallel: 4, rpm: 0 });
  deepEqual(parseSchedule({ rpm: "30", shard: "1/2" }), {
    parallel: 1,
    rpm: 30,
    shard: { index: 1, count: 2 },
  });
  throws(
    () => parseSchedule({ parallel: "0" }),
    /--parallel 0: expected a whole number of at least 1/,
  );
  throws(() => parseSchedule({ rpm: "fast" }), /--rpm fast: expected a whole number of at least 0/);
});
