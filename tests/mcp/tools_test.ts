/**
 * MCP end to end: the catalog in the system message, deferred loading with load_mcp_tool,
 * calls through the permission path and hooks, results and errors, timeouts and a server
 * that exits. hel runs as a subprocess against the scripted model and the fixture server,
 * whose log shows what reached the server.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { RecordedRequest, ScriptTurn } from "../../fixtures/scripted_model.ts";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { command, group, hooksJson, trustHooks } from "../_hooks.ts";
import {
  assertNoServerLeft,
  fixtureServer,
  helMcpInProcess,
  helMcpTraced,
  mcpProject,
  offered,
  readLog,
  receivedCalls,
  receivedMethods,
  systemText,
  toolMessage,
} from "../_mcp.ts";

const fixture = (extra: { timeout?: number } = {}) => (root: string) => ({
  t: { ...fixtureServer(root, "t"), timeout: extra.timeout ?? 10 },
});

Deno.test("without .hel/mcp.json nothing changes: no load_mcp_tool, no MCP section", async () => {
  await using project = await tempProject({});
  await using model = scriptedModel([{ text: "done" }]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(model.requests[0]!.toolNames, ["read_file"]);
  assert.doesNotMatch(systemText(model.requests[0]!), /MCP tools/);
  assert.doesNotMatch(result.stderr, /MCP/);
  assert.equal(model.remaining(), 0);
});

Deno.test("the system message lists names and first lines; unusable tools are excluded, long names hashed", async () => {
  await using project = await mcpProject(fixture());
  await using model = scriptedModel([{ text: "done" }]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  const system = systemText(model.requests[0]!);
  assert.match(system, /\n\nMCP tools from the MCP servers configured for this run\. /);
  assert.match(system, /call load_mcp_tool with the names you need/);
  assert.match(system, /^- mcp__t__echo: Echo text back\.$/m);
  assert.doesNotMatch(system, /Second line/);
  assert.match(system, /^- mcp__t__a_b: A dotted name\.$/m); // sanitised name
  assert.match(system, /^- mcp__t__die: /m); // from the second tools/list page
  assert.doesNotMatch(system, /noschema/);
  assert.match(system, /^- mcp__t__x{43}_[0-9a-f]{12}: A name that is too long\.$/m);
  assert.doesNotMatch(system, /"properties"|inputSchema/); // no schema before loading
  // The first request offers the built-ins and load_mcp_tool only.
  assert.deepEqual(model.requests[0]!.toolNames, ["read_file", "load_mcp_tool"]);
  // Every exclusion is reported with the tool and the reason.
  assert.match(
    result.stderr,
    /MCP tool "noschema" of server t excluded: it has no object inputSchema/,
  );
  assert.doesNotMatch(result.stderr, /x{70}/);
  assert.deepEqual(await receivedMethods(project.logPath("t")), [
    "initialize",
    "notifications/initialized",
    "tools/list",
    "tools/list",
  ]);
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("load_mcp_tool adds definitions from the next request, without contacting the server", async () => {
  await using project = await mcpProject(fixture());
  await using model = scriptedModel([
    { toolCalls: [{ id: "early", name: "mcp__t__echo", arguments: { text: "too soon" } }] },
    { toolCalls: [{ id: "bad", name: "load_mcp_tool", arguments: { names: ["mcp__t__nope"] } }] },
    { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: ["mcp__t__echo"] } }] },
    { toolCalls: [{ id: "again", name: "load_mcp_tool", arguments: { names: ["mcp__t__echo"] } }] },
    { toolCalls: [{ id: "call", name: "mcp__t__echo", arguments: { text: "8437" } }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    toolMessage(model, "early"),
    "error: mcp__t__echo is not loaded; call load_mcp_tool with this name first",
  );
  assert.match(toolMessage(model, "bad"), /^error: mcp__t__nope: unknown MCP tool/);
  assert.equal(toolMessage(model, "load"), "mcp__t__echo: loaded; callable from the next request");
  assert.equal(toolMessage(model, "again"), "mcp__t__echo: already loaded");
  assert.equal(toolMessage(model, "call"), "8437");
  const names = model.requests.map((request) => request.toolNames);
  assert.deepEqual(names[2], ["read_file", "load_mcp_tool"]);
  assert.deepEqual(names[3], ["read_file", "load_mcp_tool", "mcp__t__echo"]);
  // The loaded definition is the server's own schema and its full description.
  const echo = offered(model.requests[3]!, "mcp__t__echo");
  assert.deepEqual(echo.function.parameters, {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
  });
  assert.equal(echo.function.description, "Echo text back.\nSecond line of the description.");
  // Only the loaded call reached the server, with the server's own tool name.
  assert.deepEqual(await receivedCalls(project.logPath("t")), [
    { name: "echo", arguments: { text: "8437" } },
  ]);
  assert.equal(model.remaining(), 0);
});

Deno.test("MCP tools are class execute: read-only refuses, confirm asks, auto runs", async () => {
  await using project = await mcpProject(fixture());
  const load = { toolCalls: [{ name: "load_mcp_tool", arguments: { names: ["mcp__t__echo"] } }] };
  const call = (text: string) => ({
    toolCalls: [{ id: text, name: "mcp__t__echo", arguments: { text } }],
  });

  // read-only: loading works (it is a read), calling does not.
  await using readOnly = scriptedModel([load, call("read-only"), { text: "done" }]);
  let result = await helMcpInProcess(project, readOnly, [], { access: "read-only" });
  assert.equal(result.code, 0, result.stderr);
  assert.match(readOnly.requests[1]!.messages.at(-1).content, /loaded; callable/);
  assert.match(
    toolMessage(readOnly, "read-only"),
    /^error: permission denied: mcp__t__echo \(access=read-only, approval=none\)/,
  );

  // confirm, answered no: nothing reaches the server.
  await project.write("no.json", "[false]");
  await using denied = scriptedModel([load, call("denied"), { text: "done" }]);
  result = await helMcpInProcess(project, denied, ["--approval-input", "no.json"], {
    access: "confirm",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(toolMessage(denied, "denied"), /^error: permission denied: .*the user declined/);

  // confirm, answered yes; then auto.
  await project.write("yes.json", "[true]");
  await using approved = scriptedModel([load, call("approved"), { text: "done" }]);
  result = await helMcpInProcess(project, approved, ["--approval-input", "yes.json"], {
    access: "confirm",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(toolMessage(approved, "approved"), "approved");
  await using auto = scriptedModel([load, call("auto"), { text: "done" }]);
  result = await helMcpInProcess(project, auto);
  assert.equal(toolMessage(auto, "auto"), "auto");

  assert.deepEqual(await receivedCalls(project.logPath("t")), [
    { name: "echo", arguments: { text: "approved" } },
    { name: "echo", arguments: { text: "auto" } },
  ]);
  for (const model of [readOnly, denied, approved, auto]) assert.equal(model.remaining(), 0);
});

Deno.test("PreToolUse hooks see mcp__ names and can block before the server is called", async () => {
  await using project = await mcpProject(fixture(), {
    files: {
      ".hel/hooks.json": hooksJson([
        group("^mcp__", command("echo external tool blocked >&2; exit 2")),
      ]),
    },
  });
  await trustHooks(project);
  await using model = scriptedModel([
    { toolCalls: [{ name: "load_mcp_tool", arguments: { names: ["mcp__t__echo"] } }] },
    { toolCalls: [{ id: "blocked", name: "mcp__t__echo", arguments: { text: "x" } }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.match(toolMessage(model, "blocked"), /^error: .*external tool blocked/);
  assert.deepEqual(await receivedCalls(project.logPath("t")), []);
  assert.equal(model.remaining(), 0);
});

Deno.test("PostToolUse hooks run after a successful MCP call and see its result", async () => {
  await using project = await mcpProject(fixture(), {
    files: {
      ".hel/hooks.json": hooksJson([], [
        group("^mcp__t__", command("grep -q '8437' && echo 'post hook saw the port' >&2; exit 2")),
      ]),
    },
  });
  await trustHooks(project);
  await using model = scriptedModel([
    {
      toolCalls: [{
        name: "load_mcp_tool",
        arguments: { names: ["mcp__t__echo", "mcp__t__fail"] },
      }],
    },
    { toolCalls: [{ id: "echo", name: "mcp__t__echo", arguments: { text: "port 8437" } }] },
    { toolCalls: [{ id: "fail", name: "mcp__t__fail", arguments: {} }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  const echo = toolMessage(model, "echo");
  assert.match(echo, /^port 8437/);
  assert.match(echo, /post hook saw the port/);
  // A failed call runs no PostToolUse hook.
  assert.equal(toolMessage(model, "fail"), "error: tool failed");
  assert.equal(model.remaining(), 0);
});

Deno.test("results and errors go back to the model and the loop goes on", async () => {
  await using project = await mcpProject(fixture());
  const names = ["fail", "rpcerr", "image", "structured", "chatty", "big"];
  await using model = scriptedModel([
    {
      toolCalls: [{
        name: "load_mcp_tool",
        arguments: { names: names.map((n) => `mcp__t__${n}`) },
      }],
    },
    { toolCalls: names.map((name) => ({ id: name, name: `mcp__t__${name}`, arguments: {} })) },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(toolMessage(model, "fail"), "error: tool failed");
  assert.equal(toolMessage(model, "rpcerr"), "error: MCP error -32000: boom");
  assert.equal(toolMessage(model, "image"), "[image: image/png, 8 B]\ncaption");
  assert.equal(toolMessage(model, "structured"), '{"port":8437}');
  assert.equal(toolMessage(model, "chatty"), "chatted");
  // A large result is spilled like any other: head, a notice naming the saved file, tail.
  const big = toolMessage(model, "big");
  assert.match(big, /^line of output\n/);
  const saved = big.match(/The full result is saved at (\S+\.txt)/)?.[1];
  assert.ok(saved, big.slice(0, 5000));
  assert.equal(await Deno.readTextFile(saved), "line of output\n".repeat(5000));
  // The server's own request (roots/list) was answered with the project as the one root; its
  // notification was ignored.
  const log = await readLog(project.logPath("t"));
  // deno-lint-ignore no-explicit-any
  const answer = log.find((message) => message.id === "srv-1") as any;
  assert.deepEqual(
    // deno-lint-ignore no-explicit-any
    answer?.result?.roots?.map((root: any) => decodeURIComponent(new URL(root.uri).pathname)),
    [await Deno.realPath(project.project)],
  );
  assert.equal(model.remaining(), 0);
});

Deno.test("a timed-out call is cancelled, the server stays, and its late answer is dropped", async () => {
  await using project = await mcpProject(fixture({ timeout: 2 }));
  await using model = scriptedModel([
    {
      toolCalls: [{
        name: "load_mcp_tool",
        arguments: { names: ["mcp__t__slow", "mcp__t__echo"] },
      }],
    },
    { toolCalls: [{ id: "late", name: "mcp__t__slow", arguments: { seconds: 3 } }] },
    // The first call's answer arrives while this one is waiting: it must not be taken for it.
    { toolCalls: [{ id: "next", name: "mcp__t__slow", arguments: { seconds: 1.5 } }] },
    { toolCalls: [{ id: "after", name: "mcp__t__echo", arguments: { text: "after" } }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    toolMessage(model, "late"),
    /^error: MCP request tools\/call to t timed out after 2 seconds; the request was cancelled and the server keeps running/,
  );
  assert.equal(toolMessage(model, "next"), "slow done after 1.5 s");
  assert.equal(toolMessage(model, "after"), "after");
  const log = await readLog(project.logPath("t"));
  const lateCall = log.find((m) => m.method === "tools/call") as { id: number };
  const cancels = log.filter((m) => m.method === "notifications/cancelled") as {
    params: { requestId: number };
  }[];
  assert.deepEqual(cancels.map((c) => c.params.requestId), [lateCall.id]);
  // Same server process throughout: one start, one initialize.
  assert.equal(log.filter((m) => "started" in m).length, 1);
  assert.equal(log.filter((m) => m.method === "initialize").length, 1);
  assert.equal(model.remaining(), 0);
});

Deno.test("a server's stderr is always drained and kept only as a bounded tail in the run log", async () => {
  await using project = await mcpProject(fixture());
  await using model = scriptedModel([
    { toolCalls: [{ name: "load_mcp_tool", arguments: { names: ["mcp__t__noisy"] } }] },
    { toolCalls: [{ id: "noisy", name: "mcp__t__noisy", arguments: {} }] },
    { text: "done" },
  ]);
  const { result, trace } = await helMcpTraced(project, model);
  // 2 MiB through a pipe of 64 KiB: the answer only comes if hel keeps reading stderr.
  assert.equal(toolMessage(model, "noisy"), "quiet again");
  assert.doesNotMatch(result.stderr, /noise noise/);
  const stderr = (await trace)
    .find((e) => e.event === "stderr") as { text: string; droppedBytes: number };
  assert.equal(new TextEncoder().encode(stderr.text).length, 64 * 1024);
  assert.ok(stderr.droppedBytes > 2_000_000, String(stderr.droppedBytes));
  assert.equal(model.remaining(), 0);
});

Deno.test("servers run in the project with a base environment plus exactly their env", async () => {
  await using project = await mcpProject((root) => ({
    t: {
      ...fixtureServer(root, "t"),
      env: { FROM_CONFIG: "yes", PASSED_ON: "${KEPT_VARIABLE}", KEY: "${HEL_API_KEY}" },
    },
  }));
  await using model = scriptedModel([{ text: "done" }]);
  const result = await helMcpInProcess(project, model, [], {
    env: {
      DEEPSEEK_API_KEY: "secret-1",
      OPENAI_API_KEY: "secret-2",
      KEPT_VARIABLE: "1",
      OTHER_VARIABLE: "2",
    },
  });
  assert.equal(result.code, 0, result.stderr);
  const started = (await readLog(project.logPath("t")))[0] as { cwd: string; env: string[] };
  assert.equal(started.cwd, project.project);
  assert.ok(started.env.includes("FROM_CONFIG"));
  assert.ok(started.env.includes("PASSED_ON"));
  assert.ok(started.env.includes("PATH"));
  // hel's other variables stay with hel; a reference to a model key finds nothing.
  for (const key of ["KEPT_VARIABLE", "OTHER_VARIABLE", "KEY"]) {
    assert.ok(!started.env.includes(key), `${key} reached the server`);
  }
  for (const key of ["HEL_API_KEY", "DEEPSEEK_API_KEY", "OPENAI_API_KEY"]) {
    assert.ok(!started.env.includes(key), `${key} reached the server`);
  }
  assert.equal(model.remaining(), 0);
});

Deno.test("loaded definitions live in the tool list and survive compaction", async () => {
  await using project = await mcpProject(fixture());
  const SUMMARY = "## Primary Request and Intent\nEcho words through the MCP server.";
  const steps: ScriptTurn[] = [
    { toolCalls: [{ name: "load_mcp_tool", arguments: { names: ["mcp__t__echo"] } }] },
    {
      toolCalls: [{ id: "long", name: "mcp__t__echo", arguments: { text: "word ".repeat(3000) } }],
    },
    { toolCalls: [{ id: "short", name: "mcp__t__echo", arguments: { text: "short" } }] },
    { toolCalls: [{ id: "after", name: "mcp__t__echo", arguments: { text: "after compaction" } }] },
    { text: "done" },
  ];
  // Summary requests come when the compactor decides; everything else plays the steps.
  const isSummary = (request: RecordedRequest) =>
    JSON.stringify(request.messages.at(-1) ?? "").includes("compaction summary");
  const turns = Array.from(
    { length: 12 },
    () => (request: RecordedRequest): ScriptTurn =>
      isSummary(request) ? { text: SUMMARY } : steps.shift() ?? { text: "extra" },
  );
  await using model = scriptedModel(turns);
  const result = await helMcpInProcess(project, model, [
    "--compact-at",
    "3000",
    "--keep-recent",
    "200",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(steps.length, 0);
  assert.equal(model.requests.length + model.remaining(), 12);
  // A request after the compaction: the load call is summarised away, the definition stays.
  const compacted = model.requests.filter((request) =>
    !isSummary(request) && JSON.stringify(request.messages).includes("Echo words through") &&
    !JSON.stringify(request.messages).includes("loaded; callable")
  );
  assert.ok(compacted.length > 0, result.stderr);
  for (const request of compacted) {
    assert.deepEqual(request.toolNames, ["read_file", "load_mcp_tool", "mcp__t__echo"]);
  }
  assert.equal(toolMessage(model, "after"), "after compaction");
});
