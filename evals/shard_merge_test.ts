/**
 * Scheduling end to end: the real `deno task eval` runs the h10 lab serially, four at a time,
 * and as three shards merged afterwards, all against one scripted model that answers by policy
 * (scalePolicy, whose call ids depend only on the run), so the order in which runs reach it
 * does not matter. The verdicts and the report
 * must be the same every way, apart from timings.
 */
import { deepEqual, equal, match, notEqual, ok, rejects } from "node:assert/strict";
import { scriptedModel } from "../tests/_helpers.ts";
import { evalCli, type EvalDirs, evalDirs, exists, readJson, TASK } from "./_eval_helpers.ts";
import { scalePolicy } from "./testdata/h10_scale_model.ts";
import { mergeResults } from "./merge.ts";

const REPETITIONS = 2;
const RUNS = REPETITIONS * 2;

/** A report with its timings (wall times, durations, dates) blanked. */
function withoutTimings(report: string): string {
  return report
    .replaceAll(/\d{4}-\d\d-\d\dT[\d:.]+Z?/g, "<date>")
    .replaceAll(/\d[\d,]*(\.\d+)? (ms|s)\b/g, "<time>");
}

/** Each run's verdict by run id, from `<results>/h10/`. */
async function verdicts(results: string): Promise<Record<string, unknown>> {
  const found: Record<string, unknown> = {};
  for await (const entry of Deno.readDir(`${results}/h10`)) {
    if (!entry.isDirectory) continue;
    found[entry.name] = await readJson(`${results}/h10/${entry.name}/verdict.json`);
  }
  return found;
}

function withResults(dirs: EvalDirs, results: string): EvalDirs {
  return { ...dirs, results };
}

Deno.test("parallel and sharded runs give the serial verdicts; merged shards give the serial report", async () => {
  await using dirs = await evalDirs((lab) => lab.repetitions = REPETITIONS);
  await using model = scriptedModel(Array.from({ length: 200 }, () => scalePolicy));
  // Folder names of one length: the prompt carries the workspace path, and the scripted model
  // counts tokens from the prompt's length, so the token columns stay comparable.
  const serial = withResults(dirs, `${dirs.root}/serial`);
  const parallel = withResults(dirs, `${dirs.root}/paral4`);
  const shards = [1, 2, 3].map((k) => withResults(dirs, `${dirs.root}/shard${k}`));
  const merged = withResults(dirs, `${dirs.root}/merged`);

  const one = await evalCli(["h10", "--base-url", model.url], serial);
  equal(one.code, 0, one.stderr);
  const four = await evalCli(["run", "h10", "--base-url", model.url, "--parallel", "4"], parallel);
  equal(four.code, 0, four.stderr);
  match(four.stdout, /4 at a time · at most 60 requests\/min/);
  match(four.stdout, new RegExp(`${RUNS} run\\(s\\) done, 0 skipped`));
  deepEqual(await verdicts(parallel.results), await verdicts(serial.results));
  // hel talked to the pacing proxy; the record names the endpoint the requests went to.
  const paced = `${parallel.results}/h10/h10-${TASK}-variant-01`;
  equal((await readJson(`${paced}/record.json`)).model.base_url, model.url);
  match(
    (await readJson(`${paced}/run.json`)).via_rate_limit_proxy,
    /^http:\/\/127\.0\.0\.1:\d+\/v1$/,
  );

  const counts = [];
  for (const [index, shard] of shards.entries()) {
    const args = ["run", "h10", "--base-url", model.url, "--shard", `${index + 1}/3`];
    const result = await evalCli(args, shard);
    equal(result.code, 0, result.stderr);
    match(result.stdout, new RegExp(`shard ${index + 1}/3`));
    counts.push(Object.keys(await verdicts(shard.results)).length);
  }
  // Round-robin over the plan: disjoint, complete, sizes within one of each other.
  deepEqual(counts, [2, 1, 1]);

  const merge = await evalCli(["merge", ...shards.map((s) => s.results)], merged);
  equal(merge.code, 0, merge.stderr);
  match(merge.stdout, new RegExp(`h10 · ${RUNS} run\\(s\\) merged into ${merged.results}/h10`));
  deepEqual(await verdicts(merged.results), await verdicts(serial.results));
  const serialReport = await Deno.readTextFile(`${serial.results}/h10/report.md`);
  const mergedReport = await Deno.readTextFile(`${merged.results}/h10/report.md`);
  notEqual(withoutTimings(serialReport), serialReport, "timings were blanked");
  equal(withoutTimings(mergedReport), withoutTimings(serialReport));
  match(mergedReport, /\| variant \| mcp-port-lookup-01 \| 2\/2 \|/);

  // Merging the same shard twice is refused: shards are disjoint slices of one plan.
  const twice = await evalCli(
    ["merge", shards[0]!.results, shards[0]!.results],
    withResults(dirs, `${dirs.root}/twice`),
  );
  equal(twice.code, 2);
  match(twice.stderr, /run h10\/h10-mcp-port-lookup-01-baseline-01 is in both /);
  ok(!await exists(`${dirs.root}/twice/h10`), "nothing was copied");
  equal(model.requests.filter((r) => r.messages.length === 2).length, 3 * RUNS, "runs started");
});

Deno.test("merge copies no link a shard's folder holds and refuses an occupied target", async () => {
  await using dirs = await evalDirs();
  const shard = `${dirs.root}/shard`, target = `${dirs.root}/merged`;
  const run = `${shard}/h10/h10-${TASK}-variant-01`;
  await Deno.mkdir(`${run}/workspace`, { recursive: true });
  await Deno.writeTextFile(`${run}/record.json`, "{}");
  await Deno.symlink("/etc/passwd", `${run}/workspace/passwd`);
  const merged = await mergeResults([shard], target);
  deepEqual([...merged], [["h10", 1]]);
  ok(await exists(`${target}/h10/h10-${TASK}-variant-01/record.json`));
  ok(!await exists(`${target}/h10/h10-${TASK}-variant-01/workspace/passwd`));
  await rejects(mergeResults([shard], target), /exists already; merge into an empty/);
  await rejects(mergeResults([`${dirs.root}/none`], target), /cannot read .*none/);
});
