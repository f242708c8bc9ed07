/**
 * `--output-format stream-json`: real runs (the whole command line in-process against the
 * scripted model, an MCP fixture server, the HTTP scripted model for retries) whose stdout is
 * checked line by line against `cli/output/stream_json.schema.json`, and read for what a
 * script relies on: deltas that join to the answer, every tool_use answered by its id, the
 * permission decisions, usage as the model reported it, nothing raw on the terminal.
 */
import assert from "node:assert/strict";
import { promptTokens, type RecordedRequest, type ScriptTurn } from "../../fixtures/script.ts";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { fixtureServer, helMcpInProcess, mcpProject } from "../_mcp.ts";
import { runHelInProcess, testRun } from "../_run.ts";
import {
  linesOf,
  schemaErrors,
  type StreamLine,
  streamLines,
  validLine,
  validResult,
} from "../_output_schema.ts";

const STREAM = ["--output-format", "stream-json", "--no-env"];

/** Characters that drive or disguise a terminal: C0 but newline, DEL, C1, bidi overrides. */
// deno-lint-ignore no-control-regex
const RAW_CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2028\u2029]/;
const HOSTILE = "Done.\u001b]0;pwned\u0007 \u009b31m red \u202eevil\u202c \u2028next \u{e0041}";

/** What the scripted model reports for `request`: its usage in the result's names. */
function scriptedUsage(request: RecordedRequest) {
  const prompt = promptTokens(request);
  return {
    input_tokens: prompt,
    output_tokens: 10,
    cache_read_input_tokens: Math.floor(prompt / 2),
  };
}

/** The blocks of an assistant line. */
const blocks = (line: StreamLine): StreamLine[] => line.message.content;

/** The text (or reasoning) blocks of an assistant line, joined. */
const blockText = (line: StreamLine, kind: "text" | "thinking") =>
  blocks(line).filter((block) => block.type === kind).map((block) => block[kind]).join("");
Deno.test("--output-format stream-json: init first, deltas, calls, results, permissions and the result, each line valid", async () => {
  await using run = await testRun({
    files: { "notes.txt": "the code is 7\n", "answers.json": "[true, false]" },
    turns: [
      {
        reasoning: "I should read the notes first.",
        text: "Let me look at the notes.",
        toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }],
      },
      {
        toolCalls: [
          { name: "write_file", arguments: { path: "out.txt", content: "7\n" } },
          { name: "bash", arguments: { command: "rm -rf notes.txt" } },
        ],
      },
      { text: HOSTILE },
    ],
    flags: [...STREAM, "--access", "confirm", "--approval-input", "answers.json", "go"],
  });
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stdout, RAW_CONTROLS);
  const lines = streamLines(run.stdout);

  // One init line first, one result line last, one session throughout: the one saved on disk.
  const [init, result] = [lines[0]!, lines.at(-1)!];
  assert.equal(init.subtype, "init");
  assert.equal(result.type, "result");
  assert.equal(linesOf(lines, "system", "init").length, 1);
  assert.equal(linesOf(lines, "result").length, 1);
  assert.deepEqual(new Set(lines.map((line) => line.session_id)), new Set([init.session_id]));
  assert.equal(new Set(lines.map((line) => line.uuid)).size, lines.length);
  assert.ok(
    (await Deno.stat(`${run.project.project}/.hel/sessions/${init.session_id}`)).isDirectory,
  );
  assert.equal(init.cwd, await Deno.realPath(run.project.project));
  assert.equal(init.access, "confirm");
  assert.deepEqual(init.tools, run.model.requests[0]!.toolNames);
  assert.deepEqual(init.mcp_servers, []);

  // The deltas before each assistant line join to its text and reasoning.
  const assistants = linesOf(lines, "assistant");
  assert.equal(assistants.length, 3);
  let deltas: StreamLine[] = [];
  for (const line of lines) {
    if (line.type === "stream_event") deltas.push(line.event.delta);
    if (line.type !== "assistant") continue;
    const joined = (kind: string, field: string) =>
      deltas.filter((delta) => delta.type === kind).map((delta) => delta[field]).join("");
    assert.equal(joined("text_delta", "text"), blockText(line, "text"));
    assert.equal(joined("thinking_delta", "thinking"), blockText(line, "thinking"));
    deltas = [];
  }
  assert.equal(blockText(assistants[0]!, "thinking"), "I should read the notes first.");
  assert.equal(blockText(assistants[0]!, "text"), "Let me look at the notes.");
  // The answer is the same text as the model's, every byte kept, whatever it holds.
  assert.equal(blockText(assistants[2]!, "text"), HOSTILE);
  assert.equal(result.result, HOSTILE);

  // Every tool_use is answered by a tool_result with its id, in order, after it.
  const uses = assistants.flatMap((line) => blocks(line).filter((b) => b.type === "tool_use"));
  const results = linesOf(lines, "user").flatMap((line) => line.message.content);
  assert.deepEqual(uses.map((use) => use.name), ["read_file", "write_file", "bash"]);
  assert.deepEqual(results.map((r) => r.tool_use_id), uses.map((use) => use.id));
  assert.deepEqual(uses[2]!.input, { command: "rm -rf notes.txt" });
  assert.deepEqual(results.map((r) => [r.status, r.is_error]), [
    ["done", false],
    ["done", false],
    ["declined", true],
  ]);
  assert.equal(results[0]!.content, "the code is 7\n");
  assert.match(results[2]!.content, /^error: permission denied: bash .*the user declined/);
  assert.equal(await run.project.read("out.txt"), "7\n");

  // A permission line for each call, before its result; the refused one in the result too.
  const decisions = linesOf(lines, "system", "permission");
  assert.deepEqual(
    decisions.map((d) => [d.tool_use_id, d.decision, d.approval, d.executed]),
    [
      [uses[0]!.id, "allow", null, true],
      [uses[1]!.id, "ask", "approved", true],
      [uses[2]!.id, "ask", "denied", false],
    ],
  );
  for (const decision of decisions) {
    const at = lines.indexOf(decision);
    const answered = lines.findIndex((line) =>
      line.type === "user" && line.message.content[0].tool_use_id === decision.tool_use_id
    );
    assert.ok(at < answered, `the decision on ${decision.tool_use_id} comes before its result`);
  }
  assert.deepEqual(result.permission_denials, [
    { tool_name: "bash", tool_use_id: uses[2]!.id, tool_input: { command: "rm -rf notes.txt" } },
  ]);

  // Usage as the model reported it: per reply, and summed in the result.
  const reported = run.model.requests.map(scriptedUsage);
  assert.deepEqual(assistants.map((line) => line.message.usage), reported);
  const sum = (key: keyof typeof reported[0]) =>
    reported.reduce((total, usage) => total + usage[key], 0);
  assert.deepEqual(result.usage, {
    input_tokens: sum("input_tokens"),
    output_tokens: 30,
    cache_read_input_tokens: sum("cache_read_input_tokens"),
  });
  assert.equal(result.subtype, "success");
  assert.equal(result.is_error, false);
  assert.equal(result.num_turns, 3);
  assert.equal(result.model_calls, 3);
  assert.equal(result.tool_calls, 3);
  assert.ok(result.duration_ms >= result.duration_api_ms, JSON.stringify(result));

  // The JSON replaces the [tool] lines, the session line and the usage line on stderr.
  assert.doesNotMatch(run.stderr, /^\[tool\]|^\[usage:|^session:/m);
});

Deno.test("--output-format stream-json reports each retry as an api_retry line, and the time spent", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ fail: 503, retryAfterMs: 40 }, { text: "made it" }]);
  const result = await runHelInProcess(
    ["--base-url", model.url, "--model", "m", ...STREAM, "hi"],
    { cwd: project.project },
  );
  assert.equal(result.code, 0, result.stderr);
  const lines = streamLines(result.stdout);
  const retries = linesOf(lines, "system", "api_retry");
  assert.equal(retries.length, 1);
  assert.equal(retries[0]!.attempt, 1);
  assert.equal(retries[0]!.retry_delay_ms, 40);
  assert.match(retries[0]!.error, /HTTP 503/);
  // The retry is announced before the answer it led to.
  assert.ok(lines.indexOf(retries[0]!) < lines.indexOf(linesOf(lines, "assistant")[0]!));
  const end = lines.at(-1)!;
  assert.deepEqual([end.result, end.model_calls, end.num_turns], ["made it", 1, 1]);
  assert.ok(end.duration_api_ms >= 40, `duration_api_ms ${end.duration_api_ms} counts the wait`);
  // The person watching stderr sees the retry as in a text run.
  assert.match(result.stderr, /HTTP 503.*retry 1 of 4 in 40 ms/);
});

const SUMMARY = "## Primary Request and Intent\n- read the files\n## Next Step\n- answer";
const isSummaryRequest = (request: RecordedRequest) =>
  /compaction summary/.test(String(request.messages.at(-1)?.content ?? ""));

Deno.test("--output-format stream-json reports a compaction as a compact_boundary line", async () => {
  const lines40 = (label: string) =>
    Array.from({ length: 40 }, (_, i) => `${label} line ${i}: ${"x".repeat(60)}`).join("\n");
  const files = ["a.txt", "b.txt", "c.txt", "d.txt"];
  let next = 0;
  const reader = (request: RecordedRequest): ScriptTurn => {
    if (isSummaryRequest(request)) return { text: SUMMARY };
    const file = files[next++];
    return file
      ? { toolCalls: [{ name: "read_file", arguments: { path: file } }] }
      : { text: "all files read" };
  };
  await using run = await testRun({
    files: Object.fromEntries(files.map((file) => [file, lines40(file)])),
    turns: Array.from({ length: 6 }, () => reader),
    flags: [...STREAM, "--access", "auto", "--compact-at", "3000", "--keep-recent", "1000", "go"],
  });
  assert.equal(run.code, 0, run.stderr);
  const lines = streamLines(run.stdout);
  const boundaries = linesOf(lines, "system", "compact_boundary");
  assert.equal(boundaries.length, 1, JSON.stringify(boundaries));
  const { compact_metadata: meta } = boundaries[0]!;
  assert.equal(meta.trigger, "auto");
  assert.ok(meta.summarised_messages > 0, JSON.stringify(meta));
  assert.ok(meta.pre_tokens > 3000 && meta.post_tokens < meta.pre_tokens, JSON.stringify(meta));
  // It comes before the reply to the compacted request; the summary is no assistant line.
  const summaryAt = run.model.requests.findIndex(isSummaryRequest);
  const assistants = linesOf(lines, "assistant");
  assert.equal(assistants.length, run.model.requests.length - 1);
  assert.ok(lines.indexOf(boundaries[0]!) < lines.indexOf(assistants[summaryAt]!));
  assert.ok(lines.indexOf(boundaries[0]!) > lines.indexOf(assistants[summaryAt - 1]!));
  const end = lines.at(-1)!;
  assert.deepEqual([end.result, end.num_turns, end.model_calls], [
    "all files read",
    run.model.requests.length - 1,
    run.model.requests.length,
  ]);
});

Deno.test("--output-format stream-json lists MCP servers with their status, and MCP calls like any other", async () => {
  await using project = await mcpProject((root) => ({
    t: fixtureServer(root, "t"),
    old: fixtureServer(root, "old", "--version=1999-01-01"),
  }));
  await using model = scriptedModel([
    { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: ["mcp__t__echo"] } }] },
    { toolCalls: [{ id: "echo", name: "mcp__t__echo", arguments: { text: "8437" } }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model, STREAM);
  assert.equal(result.code, 0, result.stderr);
  const lines = streamLines(result.stdout);
  const init = lines[0]!;
  const servers = [...init.mcp_servers].sort((a, b) => a.name.localeCompare(b.name));
  assert.equal(servers.length, 2);
  assert.deepEqual(servers[1], { name: "t", status: "connected", tools: servers[1].tools });
  assert.ok(servers[1].tools > 0);
  assert.equal(servers[0].name, "old");
  assert.equal(servers[0].status, "skipped");
  assert.match(servers[0].reason, /MCP protocol version 1999-01-01/);
  assert.deepEqual(init.tools, ["read_file", "load_mcp_tool"]);
  // The skipped server's warning is a line of the stream as well as on stderr.
  const warnings = linesOf(lines, "system", "warning").map((line) => line.message);
  assert.ok(warnings.some((text) => /^MCP server old skipped: /.test(text)), warnings.join("\n"));
  assert.match(result.stderr, /MCP server old skipped: /);
  const results = linesOf(lines, "user").map((line) => line.message.content[0]);
  assert.deepEqual(results.map((r) => [r.tool_use_id, r.status]), [["load", "done"], [
    "echo",
    "done",
  ]]);
  assert.equal(results[1].content, "8437");
  const decision = linesOf(lines, "system", "permission").find((d) => d.tool_use_id === "echo")!;
  assert.deepEqual([decision.tool_name, decision.decision, decision.executed], [
    "mcp__t__echo",
    "allow",
    true,
  ]);
});

Deno.test("the schema rejects a line with a missing, unknown or mistyped field", async () => {
  await using run = await testRun({
    files: { "a.txt": "a" },
    turns: [{ toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] }, { text: "ok" }],
    flags: [...STREAM, "go"],
  });
  const lines = streamLines(run.stdout);
  const copy = (line: StreamLine | undefined) => structuredClone(line!);
  const wrong: [string, StreamLine][] = [];
  const result = copy(lines.at(-1));
  delete result.session_id;
  wrong.push(["a result without session_id", result]);
  wrong.push(["an error without the error", { ...copy(lines.at(-1)), is_error: true }]);
  wrong.push(["success that is an error", {
    ...copy(lines.at(-1)),
    subtype: "error_max_turns",
  }]);
  const tool = copy(linesOf(lines, "user")[0]);
  tool.message.content[0].status = "maybe";
  wrong.push(["a tool result of unknown status", tool]);
  const assistant = copy(linesOf(lines, "assistant")[0]);
  assistant.message.content[0].input = "not an object";
  wrong.push(["a tool_use whose input is text", assistant]);
  wrong.push(["an unknown field", { ...copy(lines[0]), permissionMode: "default" }]);
  wrong.push(["an unknown type", { ...copy(lines[0]), type: "banana" }]);
  wrong.push(["a usage figure as text", {
    ...copy(lines.at(-1)),
    usage: { ...lines.at(-1)!.usage, output_tokens: "20" },
  }]);
  for (const [what, line] of wrong) {
    assert.equal(validLine(line), false, `${what} passed: ${JSON.stringify(line)}`);
  }
  assert.equal(validResult(copy(lines[0])), false, "an init line is no result");
  assert.ok(validResult(copy(lines.at(-1))), schemaErrors(validResult));
});
