/**
 * End-to-end tests of `deno task eval`: the real eval command runs the real hel on the real
 * h10 task against the scripted model started here. A test lab (the h10 lab with fewer
 * repetitions or conditions) and a copy of the task live in a temporary evals folder.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import type { ScriptTurn } from "../fixtures/scripted_model.ts";
import { REPO_ROOT, scriptedModel } from "../tests/_helpers.ts";
import { copyTree } from "./workspace.ts";

const TASK = "mcp-port-lookup-01";
const LOOKUP = "mcp__inventory__lookup_port";

interface EvalDirs extends AsyncDisposable {
  root: string;
  evals: string;
  results: string;
}

/** A temporary evals folder with the h10 task and a copy of the h10 lab, changed by `edit`. */
async function evalDirs(
  edit: (lab: Record<string, unknown>) => void = () => {},
): Promise<EvalDirs> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-eval-test-" }));
  const evals = `${root}/evals`;
  await copyTree(`${REPO_ROOT}/evals/tasks/${TASK}`, `${evals}/tasks/${TASK}`);
  const lab = parseYaml(await Deno.readTextFile(`${REPO_ROOT}/evals/labs/h10.yaml`));
  lab.repetitions = 1;
  edit(lab);
  await Deno.mkdir(`${evals}/labs`, { recursive: true });
  await Deno.writeTextFile(`${evals}/labs/h10.yaml`, stringifyYaml(lab));
  return {
    root,
    evals,
    results: `${root}/results`,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

function onlyCondition(name: string) {
  return (lab: Record<string, unknown>) => {
    lab.conditions = (lab.conditions as { name: string }[]).filter((c) => c.name === name);
  };
}

async function evalCli(args: string[], dirs: EvalDirs, env: Record<string, string> = {}) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      `${REPO_ROOT}/evals/main.ts`,
      ...args,
      "--evals-dir",
      dirs.evals,
      "--results-dir",
      dirs.results,
    ],
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

function runDir(dirs: EvalDirs, condition: string, repetition = 1) {
  return `${dirs.results}/h10/h10-${TASK}-${condition}-${String(repetition).padStart(2, "0")}`;
}

// deno-lint-ignore no-explicit-any
async function readJson(path: string): Promise<any> {
  return JSON.parse(await Deno.readTextFile(path));
}

async function receivedByServer(dir: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${dir}/raw/mcp-server-events.jsonl`);
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line))
    .filter((line) => line.direction === "received")
    .map((line) =>
      line.message.method === "tools/call"
        ? `tools/call ${line.message.params.name}`
        : line.message.method
    );
}

async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await filesContaining(path, needle));
    else if (entry.isFile && (await Deno.readTextFile(path)).includes(needle)) found.push(path);
  }
  return found;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

const call = (name: string, args: unknown): ScriptTurn => ({
  toolCalls: [{ name, arguments: args }],
});
const editPort = (port: string) =>
  call("search_replace", { path: "config.ini", search: "port=7000", replace: `port=${port}` });

/** The chapter's path: load, look up, edit, answer. */
const THROUGH_MCP: ScriptTurn[] = [
  call("load_mcp_tool", { names: [LOOKUP] }),
  call(LOOKUP, { service: "api" }),
  editPort("8437"),
  { text: "config.ini now has port=8437." },
];

const checkResults = (verdict: { checks: { id: string; result: string }[] }) =>
  Object.fromEntries(verdict.checks.map((check) => [check.id, check.result]));

Deno.test("h10: MCP use passes, a right guess without MCP fails the rubric, and the report says so", async () => {
  await using dirs = await evalDirs();
  // A server log left in the fixture by a manual run must not pass for any run's evidence.
  await Deno.writeTextFile(
    `${dirs.evals}/tasks/${TASK}/fixture/.hel/mcp/events.jsonl`,
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
    /no load_mcp_tool call naming mcp__inventory__lookup_port/,
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
  match(result.stdout, /h10 · 2 runs · all valid/);
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

  // A run recorded by another hel is still skipped, but the output and the report say so.
  const baselineRecord = await readJson(`${baseline}/record.json`);
  baselineRecord.harness.build = "0.0.9+0ld";
  await Deno.writeTextFile(`${baseline}/record.json`, JSON.stringify(baselineRecord));
  const changed = await evalCli(["h10", "--base-url", model.url], dirs);
  equal(changed.code, 0, changed.stderr);
  equal(model.requests.length, asked);
  match(
    changed.stdout,
    /baseline-01 · skipped \(recorded with hel 0\.0\.9\+0ld, not this \S+; --force/,
  );
  match(changed.stdout, /variant-01 · skipped \(recorded\)/);
  match(changed.stdout, /h10 · 2 runs · all valid · hel mixed: 0\.0\.9\+0ld \(1 run\), /);
  match(
    await Deno.readTextFile(`${dirs.results}/h10/report.md`),
    /harness mixed: 0\.0\.9\+0ld \(1 run\), \S+ \(1 run\)/,
  );

  // --force runs the selected condition again.
  const forced = await evalCli([
    "run",
    "h10",
    "--conditions",
    "variant",
    "--force",
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
  match(result.stdout, /h10 · 1 run · all valid/);
  ok(!await exists(runDir(dirs, "baseline")));

  const typo = await evalCli(["h10", "--condition", "variant"], dirs);
  equal(typo.code, 2);
  match(typo.stderr, /unknown option '--condition'[^]*deno task eval --help/);
});

Deno.test("h10: a run over its time budget is stopped, recorded as timeout and invalid", async () => {
  await using dirs = await evalDirs((lab) => {
    onlyCondition("variant")(lab);
    (lab.budget as Record<string, number>).timeout_seconds = 1;
  });
  // A server that accepts connections and never answers.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })();
  try {
    const url = `http://127.0.0.1:${listener.addr.port}/v1`;
    const result = await evalCli(["run", "h10", "--base-url", url], dirs);
    equal(result.code, 0, result.stderr);
    match(result.stdout, /variant-01 · invalid · timeout/);
    const record = await readJson(`${runDir(dirs, "variant")}/record.json`);
    equal(record.outcome.termination, "timeout");
    match(record.outcome.error, /stopped by the eval runner after the budget of 1 s/);
    const verdict = await readJson(`${runDir(dirs, "variant")}/verdict.json`);
    deepEqual(verdict.invalid_reasons, ["model unknown: no successful model response"]);
  } finally {
    listener.close();
    await accepting.catch(() => {});
    for (const conn of held) conn.close();
  }
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

Deno.test("h10: a server answering as another model makes the run invalid, and says how to fix it", async () => {
  await using dirs = await evalDirs(onlyCondition("variant"));
  await using model = scriptedModel(THROUGH_MCP, { model: "local-llama" });
  const result = await evalCli(["run", "h10", "--base-url", model.url], dirs);
  equal(result.code, 0, result.stderr);
  match(result.stdout, /variant-01 · invalid · completed/);
  const verdict = await readJson(`${runDir(dirs, "variant")}/verdict.json`);
  deepEqual(verdict.invalid_reasons, [
    "model mismatch: requested deepseek-flash, the server answered as local-llama; if that is " +
    "the model to measure, run again with --model local-llama --force",
  ]);
});

Deno.test("h10: a model error ends the run as an error; the run is recorded and judged", async () => {
  await using dirs = await evalDirs(onlyCondition("variant"));
  // After the load the script is empty: the scripted model answers HTTP 400.
  await using model = scriptedModel([call("load_mcp_tool", { names: [LOOKUP] })]);
  const result = await evalCli(["run", "h10", "--base-url", model.url], dirs);
  equal(result.code, 0, result.stderr);
  equal(model.remaining(), 0);
  match(result.stdout, /variant-01 · fail · error/);
  const dir = runDir(dirs, "variant");
  const record = await readJson(`${dir}/record.json`);
  equal(record.outcome.termination, "error");
  match(record.outcome.error, /400/);
  const verdict = await readJson(`${dir}/verdict.json`);
  equal(verdict.overall, "fail");
  deepEqual(checkResults(verdict), {
    "edited-file": "fail",
    "one-edit": "fail",
    "mcp-usage": "fail",
  });
  match(verdict.checks[2].detail, /loaded at call #1, but no later successful/);
});

Deno.test("h10: a pinned hash that does not match aborts before any model call", async () => {
  await using dirs = await evalDirs();
  await Deno.writeTextFile(`${dirs.evals}/tasks/${TASK}/fixture/.hel/mcp.json`, "\n", {
    append: true,
  });
  await using model = scriptedModel([]);
  const result = await evalCli(["h10", "--base-url", model.url], dirs);
  equal(result.code, 2);
  match(
    result.stderr,
    /eval: .*\.hel\/mcp\.json has SHA-256 [0-9a-f]{64}, but the lab pins [0-9a-f]{64}; nothing was run/,
  );
  equal(model.requests.length, 0);
  ok(!await exists(`${dirs.results}/h10`), "no run folder was made");
});

Deno.test("eval without an API key and without --base-url stops before anything runs", async () => {
  if (await exists(`${REPO_ROOT}/.env`)) return; // a developer's key is in the way
  await using dirs = await evalDirs();
  const result = await evalCli(["h10"], dirs, { DEEPSEEK_API_KEY: "" });
  equal(result.code, 2);
  match(result.stderr, /eval: no model API key: .*DEEPSEEK_API_KEY/);
  ok(!await exists(dirs.results));
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
