/**
 * End-to-end tests of `deno task eval` when things go wrong: a run over its time budget, a
 * model error, a server answering as another model, an MCP server that cannot start, a pin
 * that does not match, no API key. The real eval command runs the real hel.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { sha256Hex } from "../kit/mod.ts";
import { REPO_ROOT, scriptedModel } from "../tests/_helpers.ts";
import {
  call,
  checkResults,
  evalCli,
  evalDirs,
  exists,
  LOOKUP,
  onlyCondition,
  readJson,
  runDir,
  TASK,
  THROUGH_MCP,
} from "./_eval_helpers.ts";

Deno.test("h10: a run over its time budget is stopped, recorded as timeout and invalid", async () => {
  await using dirs = await evalDirs((lab) => {
    onlyCondition("variant")(lab);
    // Long enough for hel to be past its start and waiting on the model when the budget ends,
    // even on a loaded machine: a SIGINT before then ends hel without a record (seen at 1 s).
    (lab.budget as Record<string, number>).timeout_seconds = 3;
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
    match(record.outcome.error, /stopped by the eval runner after the budget of 3 s/);
    const verdict = await readJson(`${runDir(dirs, "variant")}/verdict.json`);
    deepEqual(verdict.invalid_reasons, ["model unknown: no successful model response"]);
  } finally {
    listener.close();
    await accepting.catch(() => {});
    for (const conn of held) conn.close();
  }
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
    "the model to measure, run again with --model local-llama",
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

Deno.test("h10: an MCP server that cannot start is named in the progress and in the report", async () => {
  await using dirs = await evalDirs(onlyCondition("variant"));
  const config = `${dirs.evals}/tasks/${TASK}/fixture/.hel/mcp.json`;
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      servers: { inventory: { command: "no-such-python", args: [".hel/mcp/inventory.py"] } },
    }),
  );
  const pin = await sha256Hex(await Deno.readFile(config));
  const labFile = `${dirs.evals}/labs/h10.yaml`;
  await Deno.writeTextFile(
    labFile,
    (await Deno.readTextFile(labFile)).replaceAll(/mcp_sha256: \S+/g, `mcp_sha256: ${pin}`),
  );
  await using model = scriptedModel([{ text: "The inventory server is not there." }]);
  const result = await evalCli(["h10", "--base-url", model.url], dirs);
  equal(result.code, 0, result.stderr);
  match(
    result.stdout,
    /variant-01 · MCP inventory skipped: command "no-such-python" was not found on PATH\n.*variant-01 · fail/,
  );
  match(
    await Deno.readTextFile(`${dirs.results}/h10/report.md`),
    /- MCP start: inventory skipped: command "no-such-python" was not found on PATH/,
  );
});

Deno.test("report into a pipe closed early (| head) ends quietly", async () => {
  await using dirs = await evalDirs(onlyCondition("variant"));
  await using model = scriptedModel(THROUGH_MCP);
  equal((await evalCli(["run", "h10", "--base-url", model.url], dirs)).code, 0);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      `${REPO_ROOT}/evals/main.ts`,
      "report",
      "h10",
      "--evals-dir",
      dirs.evals,
      "--results-dir",
      dirs.results,
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  await child.stdout.cancel(); // the reader is gone before anything is written
  const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
  equal(stderr, "");
  equal(status.code, 0);
});
