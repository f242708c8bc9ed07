import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { runHel, scriptedModel, tempProject } from "../tests/_helpers.ts";
import { RunRecorder } from "./record.ts";

const SECRET = "sk-record-test-secret";

async function readLines(path: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(path);
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await filesContaining(path, needle));
    else if ((await Deno.readTextFile(path)).includes(needle)) found.push(path);
  }
  return found;
}

Deno.test("--record writes the record and raw logs of a run with a tool call", async () => {
  await using project = await tempProject({ "notes.txt": "port=7000\n" });
  await using model = scriptedModel([
    { toolCalls: [{ id: "c1", name: "read_file", arguments: { path: "notes.txt" } }] },
    { text: "The port is 7000." },
  ]);
  const out = `${project.root}/out`;
  const result = await runHel(
    [
      "--base-url",
      model.url,
      "--tools",
      "read_file",
      "--access",
      "auto",
      "--record",
      `${out}/record.json`,
      "what port?",
    ],
    { cwd: project.project, env: { HEL_API_KEY: SECRET } },
  );
  equal(result.code, 0, result.stderr);
  equal(model.remaining(), 0);

  const record = JSON.parse(await Deno.readTextFile(`${out}/record.json`));
  equal(record.schema_version, "hel-record-1");
  match(record.run.session_id, /^[0-9a-f-]{36}$/);
  equal(record.harness.name, "hel");
  assert(record.harness.plugins.includes("tools"));
  deepEqual(
    { requested: record.model.requested, actual: record.model.actual },
    { requested: "deepseek-flash", actual: "deepseek-flash" },
  );
  deepEqual(record.outcome, {
    final_output: "The port is 7000.",
    termination: "completed",
    error: null,
    exit_code: 0,
  });
  deepEqual(record.events, [{
    seq: 1,
    call_id: "c1",
    name: "read_file",
    category: "read",
    args: { path: "notes.txt" },
    ok: true,
  }]);
  // The scripted model reports ceil(chars/4) prompt tokens, half of them cached, 10 out.
  const prompts = model.requests.map((r) => Math.ceil(JSON.stringify(r.messages).length / 4));
  deepEqual(record.usage.input_tokens, {
    value: prompts.reduce((a, b) => a + b),
    status: "measured",
  });
  deepEqual(record.usage.output_tokens, { value: 20, status: "measured" });
  deepEqual(record.usage.cached_input_tokens, {
    value: prompts.map((p) => Math.floor(p / 2)).reduce((a, b) => a + b),
    status: "measured",
  });
  deepEqual(record.usage.model_calls, { value: 2, status: "measured" });
  equal(record.usage.wall_time_ms.status, "measured");

  const requests = await readLines(`${out}/raw/requests.jsonl`);
  equal(requests.length, 2);
  requests.forEach((line, index) => {
    // deno-lint-ignore no-explicit-any
    deepEqual((line.request as any).messages, model.requests[index]!.body.messages);
    assert(line.response, "each line keeps the response");
  });
  const permissions = await readLines(`${out}/raw/permissions.jsonl`);
  equal(permissions.length, 1);
  equal(permissions[0]!.name, "read_file");
  equal(permissions[0]!.executed, true);
  // Plugin traces always have their file, whatever the plugins had to say.
  await readLines(`${out}/raw/hooks.jsonl`);
  await readLines(`${out}/raw/mcp.jsonl`);
  deepEqual(await filesContaining(out, SECRET), [], "the API key is in no record file");
});

Deno.test("--record records a model error as the run's end", async () => {
  await using project = await tempProject();
  // No turns: the scripted model answers HTTP 400, which is not retried.
  await using model = scriptedModel([]);
  const out = `${project.root}/out`;
  const result = await runHel(
    ["--base-url", model.url, "--record", `${out}/record.json`, "hello"],
    { cwd: project.project },
  );
  equal(result.code, 1);
  const record = JSON.parse(await Deno.readTextFile(`${out}/record.json`));
  equal(record.outcome.termination, "error");
  match(record.outcome.error, /400/);
  equal(record.outcome.exit_code, 1);
  equal(record.model.actual, null);
  deepEqual(record.usage.model_calls, { value: 1, status: "measured" });
  const requests = await readLines(`${out}/raw/requests.jsonl`);
  equal(requests.length, 1);
  match(String(requests[0]!.error), /400/);
});

Deno.test("--record records a setup error, and hel still exits 2", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([]);
  const out = `${project.root}/out`;
  const result = await runHel(
    ["--base-url", model.url, "--without", "nosuch", "--record", `${out}/record.json`, "hi"],
    { cwd: project.project },
  );
  equal(result.code, 2);
  match(result.stderr, /--without nosuch/);
  equal(model.requests.length, 0);
  const record = JSON.parse(await Deno.readTextFile(`${out}/record.json`));
  equal(record.outcome.termination, "error");
  match(record.outcome.error, /--without nosuch: no such plugin/);
  equal(record.outcome.exit_code, 2);
  equal(record.run.session_id, null);
});

Deno.test("the record has a raw trace for each channel the plugins declare, traced to or not", () => {
  const recorder = new RunRecorder("/nowhere/record.json", {
    model: "m",
    baseUrl: "http://127.0.0.1:1",
    maxOutputTokens: 1,
    maxTurns: 1,
    traceChannels: ["hooks", "notes"],
  });
  recorder.observe({ type: "trace", channel: "mcp", data: { event: "config" } });
  deepEqual(recorder.build(0).artifacts.traces, {
    hooks: "raw/hooks.jsonl",
    mcp: "raw/mcp.jsonl",
    notes: "raw/notes.jsonl",
  });
});
