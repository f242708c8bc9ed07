/**
 * End-to-end tests of `deno task eval`: the real eval command runs the real hel on the real
 * h10 task against the scripted model started here. A test lab (the h10 lab with fewer
 * repetitions or conditions) and a copy of the task live in a temporary evals folder.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { REPO_ROOT, scriptedModel } from "../tests/_helpers.ts";
import {
  call,
  checkResults,
  editPort,
  evalCli,
  evalDirs,
  exists,
  filesContaining,
  LOOKUP,
  onlyCondition,
  readJson,
  receivedByServer,
  runDir,
  TASK,
  THROUGH_MCP,
} from "./_eval_helpers.ts";

Deno.test("h10: MCP use passes, a right guess without MCP fails the rubric, and the report says so", async () => {
  await using dirs = await evalDirs();
  // A server log left in the fixture by a manual run must not pass for any run's evidence.
  await Deno.writeTextFile(
    `${dirs.evals}/tasks/${TASK}/fixture/inventory-events.jsonl`,
    JSON.stringify({ direction: "received", message: { method: "tools/call", id: 9 } }) + "\n",
  );
  await using model = scriptedModel([
    // baseline (first in each repetition): reads, then writes the right port by luck
    call("read_file", { path: "config.ini" }),
    editPort("8437"),
    { text: "I set the port to 8437." },
    // variant
    ...THROUGH_MCP,
    // the forced re-run of the variant at the end
    ...THROUGH_MCP,
  ]);
  const secret = "sk-eval-test-secret";
  const result = await evalCli(["h10", "--base-url", model.url], dirs, {
    DEEPSEEK_API_KEY: secret,
  });
  equal(result.code, 0, result.stderr);
  equal(model.remaining(), THROUGH_MCP.length);
  deepEqual(await filesContaining(dirs.results, secret), [], "the key is in no run file");
  match(result.stdout, /\[1\/2\] baseline · h10-mcp-port-lookup-01-baseline-01 · fail/);
  match(result.stdout, /\[2\/2\] variant · h10-mcp-port-lookup-01-variant-01 · pass/);

  // What the model was offered: only built-ins (and the loader) first, the definition after loading.
  deepEqual(model.requests[0]!.toolNames, ["read_file", "search_replace"]);
  deepEqual(model.requests[3]!.toolNames, ["read_file", "search_replace", "load_mcp_tool"]);
  deepEqual(model.requests[4]!.toolNames, ["read_file", "search_replace", "load_mcp_tool", LOOKUP]);

  const baseline = runDir(dirs, "baseline"), variant = runDir(dirs, "variant");
  const baselineVerdict = await readJson(`${baseline}/verdict.json`);
  equal(baselineVerdict.overall, "fail");
  deepEqual(checkResults(baselineVerdict), {
    "edited-file": "pass",
    "one-edit": "pass",
    "mcp-usage": "fail",
  });
  match(
    baselineVerdict.checks[2].detail,
    /no loading call \(load_mcp_tool, search_mcp_tools\) naming mcp__inventory__lookup_port/,
  );
  ok(!await exists(`${baseline}/raw/mcp-server-events.jsonl`), "baseline never started the server");

  const variantVerdict = await readJson(`${variant}/verdict.json`);
  equal(variantVerdict.overall, "pass");
  deepEqual(checkResults(variantVerdict), {
    "edited-file": "pass",
    "one-edit": "pass",
    "mcp-usage": "pass",
  });
  deepEqual(await receivedByServer(variant), [
    "initialize",
    "notifications/initialized",
    "tools/list",
    "tools/call lookup_port",
  ]);
  equal(
    await Deno.readTextFile(`${variant}/workspace/config.ini`),
    await Deno.readTextFile(`${dirs.evals}/tasks/${TASK}/expected/config.ini`),
  );

  const record = await readJson(`${variant}/record.json`);
  deepEqual(
    {
      run_id: record.run.run_id,
      condition: record.run.condition,
      repetition: record.run.repetition,
    },
    { run_id: "h10-mcp-port-lookup-01-variant-01", condition: "variant", repetition: 1 },
  );
  deepEqual(record.events.map((e: { name: string; ok: boolean }) => [e.name, e.ok]), [
    ["load_mcp_tool", true],
    [LOOKUP, true],
    ["search_replace", true],
  ]);
  equal(record.usage.model_calls.value, 4);
  ok(record.harness.plugins.includes("mcp"));
  ok(!(await readJson(`${baseline}/record.json`)).harness.plugins.includes("mcp"));
  ok(await exists(`${variant}/raw/mcp-trust.json`));
  match(
    await Deno.readTextFile(`${variant}/raw/mcp-server-stderr.txt`),
    /\[inventory\] inventory: ready/,
  );

  // The report's figures are the runs' own.
  const report = await Deno.readTextFile(`${dirs.results}/h10/report.md`);
  match(report, /\| baseline \| mcp-port-lookup-01 \| 0\/1 \| 1\/1 \| 1\/1 \| 0\/1 \|/);
  match(report, /\| variant \| mcp-port-lookup-01 \| 1\/1 \| 1\/1 \| 1\/1 \| 1\/1 \|/);
  const input = record.usage.input_tokens.value.toLocaleString("en-US");
  match(
    report,
    new RegExp(
      `\\| variant \\| mcp-port-lookup-01 \\| 1/1 \\| 1/1 \\| 1/1 \\| 1/1 \\| ${input} \\|`,
    ),
  );
  match(
    report,
    /loaded MCP definitions first offered: request 2 \(load_mcp_tool asked in the answer to request 1\)/,
  );
  match(
    report,
    /first request's tools: `read_file`, `search_replace`, `load_mcp_tool` — only built-ins and load_mcp_tool/,
  );
  match(
    report,
    /MCP server received: initialize, notifications\/initialized, tools\/list, tools\/call lookup_port/,
  );
  match(
    result.stdout,
    /h10 \[SCRIPTED MODEL: a pipeline check, not a measurement\] · 2 runs · all valid/,
  );
  // Run folders are named as they sit beside the report, wherever --results-dir put them.
  match(report, /folder `h10-mcp-port-lookup-01-variant-01\/`/);
  ok(await exists(`${dirs.results}/h10/h10-mcp-port-lookup-01-variant-01`));

  // Running again skips both recorded runs and asks the model nothing.
  const asked = model.requests.length;
  const again = await evalCli(["run", "h10", "--base-url", model.url], dirs);
  equal(again.code, 0, again.stderr);
  equal(model.requests.length, asked);
  match(again.stdout, /\[1\/2\] baseline · h10-mcp-port-lookup-01-baseline-01 · skipped/);
  match(again.stdout, /0 run\(s\) done, 2 skipped/);

  // --fresh runs the selected condition again.
  const forced = await evalCli([
    "run",
    "h10",
    "--conditions",
    "variant",
    "--fresh",
    "--base-url",
    model.url,
  ], dirs);
  equal(forced.code, 0, forced.stderr);
  equal(model.remaining(), 0);
  match(forced.stdout, /\[1\/1\] variant · h10-mcp-port-lookup-01-variant-01 · pass/);
  match(forced.stdout, /1 run\(s\) done, 0 skipped/);
});

Deno.test("relative --results-dir and --evals-dir name folders where deno task was started", async () => {
  await using dirs = await evalDirs(onlyCondition("variant"));
  await using model = scriptedModel(THROUGH_MCP);
  // As `deno task eval` runs it: in the repository root, with the user's folder in INIT_CWD.
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      "evals/main.ts",
      "run",
      "h10",
      "--base-url",
      model.url,
      "--evals-dir",
      "evals",
      "--results-dir",
      "results",
    ],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1", INIT_CWD: dirs.root },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  equal(output.code, 0, new TextDecoder().decode(output.stderr));
  match(stdout, /\[1\/1\] variant · h10-mcp-port-lookup-01-variant-01 · pass/);
  const dir = runDir(dirs, "variant");
  equal((await readJson(`${dir}/verdict.json`)).overall, "pass");
  ok(!await exists(`${dir}/workspace/results`), "hel wrote nothing inside the workspace");
});

Deno.test("eval <lab> --conditions runs only those, then reports; a usage error points at --help", async () => {
  await using dirs = await evalDirs();
  await using model = scriptedModel(THROUGH_MCP);
  const result = await evalCli(["h10", "--conditions", "variant", "--base-url", model.url], dirs);
  equal(result.code, 0, result.stderr);
  match(result.stdout, /\[1\/1\] variant · h10-mcp-port-lookup-01-variant-01 · pass/);
  match(
    result.stdout,
    /h10 \[SCRIPTED MODEL: a pipeline check, not a measurement\] · 1 run · all valid/,
  );
  ok(!await exists(runDir(dirs, "baseline")));

  const typo = await evalCli(["h10", "--condition", "variant"], dirs);
  equal(typo.code, 2);
  match(typo.stderr, /unknown option '--condition'[^]*deno task eval --help/);
});

Deno.test("h10: calling an MCP tool before loading it is recorded, and the run still passes", async () => {
  await using dirs = await evalDirs(onlyCondition("variant"));
  await using model = scriptedModel([call(LOOKUP, { service: "api" }), ...THROUGH_MCP]);
  const result = await evalCli(["run", "h10", "--base-url", model.url], dirs);
  equal(result.code, 0, result.stderr);
  equal(model.remaining(), 0);
  const dir = runDir(dirs, "variant");
  const verdict = await readJson(`${dir}/verdict.json`);
  equal(verdict.overall, "pass");
  const usage = verdict.checks.find((c: { id: string }) => c.id === "mcp-usage");
  deepEqual(
    {
      early: usage.facts.early_calls,
      recovered: usage.facts.recovered_after_notice,
      load: usage.facts.load_call,
    },
    { early: [1], recovered: true, load: 2 },
  );
  match(usage.detail, /early call #1 before loading, recovered after the notice/);
  // The early call never reached the server.
  deepEqual((await receivedByServer(dir)).filter((m) => m.startsWith("tools/call")), [
    "tools/call lookup_port",
  ]);
  const record = await readJson(`${dir}/record.json`);
  equal(record.events[0].ok, false);
  match(record.events[0].error, /not loaded/);

  const report = await evalCli(["report", "h10"], dirs);
  equal(report.code, 0, report.stderr);
  const text = await Deno.readTextFile(`${dirs.results}/h10/report.md`);
  match(text, /early call\(s\) #1 before loading; recovered after the notice/);
  match(text, /1 run\(s\) called an MCP tool before loading it/);
});

Deno.test("try runs one task once and shows the calls, checks and result", async () => {
  await using dirs = await evalDirs();
  await using model = scriptedModel(THROUGH_MCP);
  const result = await evalCli(
    ["try", TASK, "--condition", "variant", "--base-url", model.url],
    dirs,
  );
  equal(result.code, 0, result.stderr);
  equal(model.remaining(), 0);
  match(result.stdout, /task mcp-port-lookup-01 · condition variant/);
  match(result.stdout, /2 mcp__inventory__lookup_port \{"service":"api"\} ok/);
  match(result.stdout, /✓ mcp-usage/);
  match(result.stdout, /result pass/);
  const saved = /saved (\S+)/.exec(result.stdout)?.[1];
  ok(saved?.startsWith(`${dirs.results}/try/`));
  equal((await readJson(`${saved}/verdict.json`)).overall, "pass");

  const typo = await evalCli(["try", "mcp-port-lookup", "--base-url", model.url], dirs);
  equal(typo.code, 2);
  equal(
    typo.stderr,
    `eval: no task named "mcp-port-lookup" in ${dirs.evals}/tasks; tasks: ${TASK}\n`,
  );
});
