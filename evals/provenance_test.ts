/**
 * Provenance end to end: the real `deno task eval` against scripted models. A recorded run is
 * reused only with the same inputs (a changed endpoint runs it again), `--fresh` and `--reps`
 * do what they say, `--dry-run` asks no model, and the record and report say where every run
 * came from, marking the scripted model.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { scriptedModel } from "../tests/_helpers.ts";
import { h10Policy } from "./testdata/h10_model.ts";
import {
  evalCli,
  evalDirs,
  exists,
  onlyCondition,
  readJson,
  runDir,
  THROUGH_MCP,
} from "./_eval_helpers.ts";

Deno.test("a changed endpoint does not reuse a record; --fresh and --reps run more; --dry-run asks no model", async () => {
  await using dirs = await evalDirs(onlyCondition("variant"));
  await using first = scriptedModel(THROUGH_MCP);
  const made = await evalCli(["run", "h10", "--base-url", first.url], dirs);
  equal(made.code, 0, made.stderr);
  match(made.stdout, /SCRIPTED MODEL/);
  match(made.stdout, /variant-01 · new · started/);
  match(
    made.stdout,
    new RegExp(`variant-01 · pass · completed · deepseek-flash at ${first.url} ·`),
  );
  const record = await readJson(`${runDir(dirs, "variant")}/record.json`);
  equal(record.provenance.endpoint.base_url, first.url);
  equal(record.provenance.scripted, true);
  match(record.provenance.key, /^[0-9a-f]{64}$/);
  equal(record.provenance.machine.cpus, navigator.hardwareConcurrency);
  equal(
    record.usage.input_tokens.status,
    "estimated",
    "the scripted model's usage is no measurement",
  );
  deepEqual(
    (await readJson(`${runDir(dirs, "variant")}/run.json`)).provenance,
    record.provenance,
  );

  // Same inputs: reused, and the model is not asked.
  const same = await evalCli(["run", "h10", "--base-url", first.url], dirs);
  equal(same.code, 0, same.stderr);
  match(same.stdout, /variant-01 · skipped \(recorded with the same inputs/);
  match(
    same.stdout,
    new RegExp(`variant-01 · skipped \\(.*\\) · deepseek-flash at ${first.url}$`, "m"),
    "a reused run's line names the model that answered it and its endpoint",
  );
  equal(first.requests.length, THROUGH_MCP.length);
  // The list counts the run, and says the scripted model made it: a real run will not reuse it.
  match((await evalCli(["list"], dirs)).stdout, /1 runs?, 1 recorded \(1 by the scripted model\)/);

  await using second = scriptedModel([...THROUGH_MCP, ...THROUGH_MCP]);
  const plan = await evalCli(["run", "h10", "--base-url", second.url, "--dry-run"], dirs);
  equal(plan.code, 0, plan.stderr);
  match(
    plan.stdout,
    new RegExp(`variant-01 · would run \\(again: endpoint ${first.url} → ${second.url} changed\\)`),
  );
  match(plan.stdout, /dry run: 1 run\(s\) would be made, 0 reused/);
  equal(second.requests.length, 0, "a dry run asks no model");

  const moved = await evalCli(["run", "h10", "--base-url", second.url], dirs);
  equal(moved.code, 0, moved.stderr);
  match(moved.stdout, /variant-01 · again: endpoint \S+ → \S+ changed · started/);
  equal(second.remaining(), THROUGH_MCP.length);
  equal(
    (await readJson(`${runDir(dirs, "variant")}/record.json`)).provenance.endpoint.base_url,
    second.url,
  );

  const more = await evalCli(
    ["run", "h10", "--base-url", second.url, "--reps", "2", "--dry-run"],
    dirs,
  );
  match(more.stdout, /\[1\/2\] variant · \S+-variant-01 · skipped/);
  match(more.stdout, /\[2\/2\] variant · \S+-variant-02 · would run \(new\)/);

  const fresh = await evalCli(["run", "h10", "--base-url", second.url, "--fresh"], dirs);
  equal(fresh.code, 0, fresh.stderr);
  match(fresh.stdout, /variant-01 · again: --fresh · started/);
  equal(second.remaining(), 0);

  const badReps = await evalCli(["run", "h10", "--reps", "0", "--dry-run"], dirs);
  equal(badReps.code, 2);
  match(badReps.stderr, /--reps 0: expected a whole number from 1 to 99/);
  const tooMany = await evalCli(["run", "h10", "--reps", "100", "--dry-run"], dirs);
  equal(tooMany.code, 2);
  match(tooMany.stderr, /--reps 100: expected a whole number from 1 to 99/);
});

Deno.test("the report of scripted runs: marked title, provenance header, per-run model, Wilson and Fisher", async () => {
  await using dirs = await evalDirs();
  await using model = scriptedModel(Array.from({ length: 60 }, () => h10Policy));
  const result = await evalCli(["h10", "--base-url", model.url, "--reps", "3"], dirs);
  equal(result.code, 0, result.stderr);
  match(
    result.stdout,
    /^h10 \[SCRIPTED MODEL: a pipeline check, not a measurement\] · 6 runs · all valid/m,
  );
  match(result.stdout, /pass rate {2}baseline · mcp-port-lookup-01 {2}0\/3 \(0%, 95% CI 0%–56%\)/);
  match(
    result.stdout,
    /pass rate {2}variant · mcp-port-lookup-01 {2}3\/3 \(100%, 95% CI 44%–100%\)/,
  );
  match(
    result.stdout,
    /variant vs baseline · mcp-port-lookup-01: 3\/3 against 0\/3, \+100 points, p = 0\.100/,
  );

  const report = await Deno.readTextFile(`${dirs.results}/h10/report.md`);
  match(report, /^# Report — h10 \[SCRIPTED MODEL: a pipeline check, not a measurement\]: /);
  match(report, /\*\*All runs answered by the scripted model/);
  match(report, /^- date: report written \d{4}-\d\d-\d\dT.*; runs made /m);
  match(
    report,
    /^Lab `h10` · model `deepseek-flash` \(model or endpoint overridden on the command line\) · 3 repetitions · 6 runs · all valid$/m,
    "the Lab line leaves the endpoint and hel build to the header list",
  );
  match(report, /^- hel build: \d+\.\d+\.\d+/m);
  match(report, new RegExp(`^- endpoint: ${model.url}$`, "m"));
  match(report, /^- model: requested `deepseek-flash`; answered as deepseek-flash$/m);
  match(report, /^- sampling: .*max output tokens 8192, max turns 8, timeout 120 s/m);
  match(
    report,
    new RegExp(
      `^- machine: ${Deno.build.os} .*, ${navigator.hardwareConcurrency} CPUs, Deno `,
      "m",
    ),
  );
  match(
    report,
    /\| baseline \| mcp-port-lookup-01 \| 0\/3 \(0%, 95% CI 0%–56%\) \| .*\(estimated\)/,
  );
  match(report, /\| variant \| mcp-port-lookup-01 \| 3\/3 \(100%, 95% CI 44%–100%\) \|/);
  // Tool calls between model calls and wall time: each variant run loads, looks up and edits.
  match(report, /\| model calls \| tool calls \| wall \|/);
  match(
    report,
    /\| variant \| .* \| [3-9] \/ [3-9] \/ [3-9] \| [\d.]+ s \/ [\d.]+ s \/ [\d.]+ s \|$/m,
  );
  const answered = report.match(/^- answered by: .*$/gm) ?? [];
  equal(answered.length, 6);
  ok(answered.every((line) => line.includes(`deepseek-flash at ${model.url}`)));
});

Deno.test("a server that is not the scripted model reports measured tokens, and no scripted mark", async () => {
  await using dirs = await evalDirs(onlyCondition("variant"));
  await using model = scriptedModel(THROUGH_MCP);
  // A stand-in for a real server: the same answers, without the scripted model's header.
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const url = new URL(req.url);
      const upstream = await fetch(`${model.url.replace(/\/v1$/, "")}${url.pathname}`, {
        method: req.method,
        headers: req.headers,
        body: req.body,
      });
      const headers = new Headers(upstream.headers);
      headers.delete("x-hel-scripted-model");
      return new Response(upstream.body, { status: upstream.status, headers });
    },
  );
  const url = `http://127.0.0.1:${server.addr.port}/v1`;
  const result = await evalCli(["h10", "--base-url", url], dirs);
  equal(result.code, 0, result.stderr);
  ok(!result.stdout.includes("SCRIPTED"), result.stdout);
  const record = await readJson(`${runDir(dirs, "variant")}/record.json`);
  equal(record.provenance.scripted, false);
  equal(record.usage.input_tokens.status, "measured");
  const report = await Deno.readTextFile(`${dirs.results}/h10/report.md`);
  ok(!report.includes("SCRIPTED"));
  match(
    report,
    /\| variant \| mcp-port-lookup-01 \| 1\/1 \(100%, 95% CI 21%–100%\) \| .*\(measured\)/,
  );
});

Deno.test("eval <lab> --dry-run plans the lab's runs without a key or a model; eval list names each lab", async () => {
  await using dirs = await evalDirs();
  const plan = await evalCli(["h10", "--dry-run"], dirs, { DEEPSEEK_API_KEY: "" });
  equal(plan.code, 0, plan.stderr);
  match(plan.stdout, /^h10 · deepseek-flash at https:\/\/api\.deepseek\.com · hel /);
  match(plan.stdout, /\[1\/2\] baseline · h10-mcp-port-lookup-01-baseline-01 · would run \(new\)/);
  match(
    plan.stdout,
    /dry run: 2 run\(s\) would be made, 0 reused; nothing was run and no model asked/,
  );
  equal(await exists(`${dirs.results}/h10`), false, "a dry run writes nothing");

  // A shard's dry run plans only that shard's slice, as its run would.
  const shard = await evalCli(["h10", "--dry-run", "--shard", "2/2"], dirs, {
    DEEPSEEK_API_KEY: "",
  });
  equal(shard.code, 0, shard.stderr);
  match(shard.stdout, /· shard 2\/2/);
  match(
    shard.stdout,
    /^\[1\/1\] variant · h10-mcp-port-lookup-01-variant-01 · would run \(new\)$/m,
  );
  ok(!shard.stdout.includes("baseline-01"), shard.stdout);
  match(shard.stdout, /dry run: 1 run\(s\) would be made, 0 reused/);

  const result = await evalCli(["list"], dirs);
  equal(result.code, 0, result.stderr);
  equal(
    result.stdout,
    "h10 · MCP — a value only an MCP server knows · conditions baseline, variant · " +
      "tasks mcp-port-lookup-01 · 1 repetition · 2 runs, 0 recorded · " +
      "model deepseek-flash at https://api.deepseek.com\n",
  );
});
