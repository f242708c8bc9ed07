/**
 * The client capabilities hel declares, against an SDK server of the test suite
 * (fixtures/mcp/caps_server.ts): roots (the project folder), sampling (declined), the log level
 * asked for and what becomes of a server's log messages, and tools that need MCP tasks.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runHel, scriptedModel } from "../_helpers.ts";
import {
  assertNoServerLeft,
  helMcp,
  helMcpTraced,
  mcpProject,
  readLog,
  systemText,
  toolMessage,
} from "../_mcp.ts";
import { sdkFixtureServer } from "../_sdk_server.ts";
import { SAMPLING_DECLINED } from "../../plugins/mcp/sampling.ts";
import { fileUri } from "../../plugins/mcp/roots.ts";

const SLOWER = ["--mcp-startup-timeout", "30"];

const load = (...tools: string[]) => ({
  toolCalls: [{
    id: "load",
    name: "load_mcp_tool",
    arguments: { names: tools.map((tool) => `mcp__caps__${tool}`) },
  }],
});

Deno.test("a server gets the project as its root and a clear decline when it asks to sample", async () => {
  await using project = await mcpProject((root) => ({
    caps: sdkFixtureServer(root, "caps_server.ts", "caps"),
  }));
  await using model = scriptedModel([
    load("roots", "sample"),
    {
      toolCalls: [
        { id: "roots", name: "mcp__caps__roots", arguments: {} },
        { id: "sample", name: "mcp__caps__sample", arguments: {} },
      ],
    },
    { text: "done" },
  ]);
  const result = await helMcp(project, model, SLOWER);
  assert.equal(result.code, 0, result.stderr);
  const name = project.project.split("/").at(-1);
  assert.deepEqual(JSON.parse(toolMessage(model, "roots")), [
    { uri: fileUri(project.project), name },
  ]);
  // The model reads why, and that retrying is useless.
  assert.equal(
    toolMessage(model, "sample"),
    `error: sampling failed: MCP error -1: ${SAMPLING_DECLINED}`,
  );
  const log = await readLog(project.logPath("caps"));
  const declared = log.find((entry) => entry.clientCapabilities)?.clientCapabilities as Record<
    string,
    unknown
  >;
  assert.deepEqual(declared.roots, {}, "roots declared, without listChanged");
  assert.deepEqual(declared.sampling, {});
  // The server received the spec's code for a declined request and hel's text, unprefixed.
  assert.deepEqual(log.find((entry) => entry.method === "sampling/createMessage"), {
    method: "sampling/createMessage",
    code: -1,
    message: SAMPLING_DECLINED,
  });
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("hel asks for warning and worse unless the entry's logLevel says otherwise", async () => {
  await using project = await mcpProject((root) => ({
    caps: sdkFixtureServer(root, "caps_server.ts", "caps"),
    chatty: { ...sdkFixtureServer(root, "caps_server.ts", "chatty"), logLevel: "debug" },
  }));
  const result = await runHel(["mcp", "list"], { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  const levels = async (name: string) =>
    (await readLog(project.logPath(name))).filter((e) => e.method === "logging/setLevel");
  assert.deepEqual(await levels("caps"), [{ method: "logging/setLevel", level: "warning" }]);
  assert.deepEqual(await levels("chatty"), [{ method: "logging/setLevel", level: "debug" }]);
});

Deno.test("a server's log messages are traced, its errors shown escaped on one line, a flood cut short", async () => {
  await using project = await mcpProject((root) => ({
    caps: sdkFixtureServer(root, "caps_server.ts", "caps"),
  }));
  const log = (id: string, level: string, text: string, count = 1) => ({
    id,
    name: "mcp__caps__log",
    arguments: { level, text, count },
  });
  await using model = scriptedModel([
    load("log"),
    {
      toolCalls: [
        // The server ignores the level hel set: hel still drops what is below it.
        log("info", "info", "quiet please"),
        log("warning", "warning", "careful"),
        log("error", "error", "disk \x1b[31mfull\nsecond line"),
        log("flood", "critical", "flood", 300),
      ],
    },
    { text: "done" },
  ]);
  const { result, trace } = await helMcpTraced(project, model, SLOWER, { run: runHel });
  assert.equal(toolMessage(model, "flood"), "sent 300");
  // On stderr: the first five errors of the minute, one line each, then one line saying so.
  // (Warnings such as "careful" are only traced.)
  const shown = result.stderr.split("\n").filter((line) => line.includes("MCP server caps"));
  assert.deepEqual(shown, [
    "hel: warning: MCP server caps logged error from fixture: disk \\u001b[31mfull | second line",
    "hel: warning: MCP server caps logged critical from fixture: flood 1",
    "hel: warning: MCP server caps logged critical from fixture: flood 2",
    "hel: warning: MCP server caps logged critical from fixture: flood 3",
    "hel: warning: MCP server caps logged critical from fixture: flood 4",
    "hel: warning: MCP server caps logged more than 5 errors within a minute; hel shows no more " +
    "of them this minute (the MCP trace keeps them: --record writes it to raw/mcp.jsonl)",
  ]);
  assert.ok(!result.stderr.includes("\x1b"), "no raw escape reaches the terminal");
  // In the trace: everything at warning or worse, at most 100 a window, the rest counted.
  const entries = trace.filter((e) => e.event === "log");
  assert.deepEqual(entries.slice(0, 2).map((e) => [e.level, e.logger, e.data]), [
    ["warning", "fixture", "careful"],
    ["error", "fixture", "disk \x1b[31mfull\nsecond line"],
  ]);
  assert.equal(entries.length, 100);
  assert.ok(!entries.some((e) => e.data === "quiet please"));
  assert.deepEqual(trace.filter((e) => e.event === "log_dropped").map((e) => e.server), ["caps"]);
  assert.ok(trace.some((e) => e.event === "log_level" && e.level === "warning"));
  assert.equal(model.remaining(), 0);
});

Deno.test("a tool that runs only as an MCP task is excluded with the reason; an optional one is offered", async () => {
  await using project = await mcpProject((root) => ({
    caps: sdkFixtureServer(root, "caps_server.ts", "caps"),
  }));
  const reason = 'it runs only as an MCP task (execution.taskSupport "required"), which hel ' +
    'does not support (to stop this report, list the tools you want in the server\'s "tools")';
  const listed = await runHel(["mcp", "list"], { cwd: project.project });
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /^caps: connected, 5 tools, 1 excluded,/m);
  assert.ok(listed.stdout.includes(`  excluded "research": ${reason}\n`), listed.stdout);
  assert.match(listed.stdout, /^ {2}- mcp__caps__maybe-task: /m);

  await using model = scriptedModel([
    (request) => {
      assert.doesNotMatch(systemText(request), /mcp__caps__research/);
      return load("maybe-task");
    },
    { toolCalls: [{ id: "maybe", name: "mcp__caps__maybe-task", arguments: {} }] },
    { text: "done" },
  ]);
  const result = await helMcp(project, model, SLOWER);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(
    result.stderr.includes(`MCP tool "research" of server caps excluded: ${reason}`),
    result.stderr,
  );
  assert.equal(toolMessage(model, "maybe"), "ran maybe-task");
});
