/**
 * MCP servers that misbehave on the wire (reliability catalogue §7 (a)): a protocol version hel
 * does not speak, lines on stdout that are not MCP, answers with unknown, null, string and
 * duplicate ids, requests of the server's own (roots, sampling, undeclared ones), and a program
 * whose interpreter is missing. Each run goes on, the model sees nothing of the noise, and no
 * server is left behind.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import {
  assertNoServerLeft,
  fixtureServer,
  helMcpInProcess,
  helMcpTraced,
  mcpProject,
  readLog,
  receivedMethods,
  systemText,
  toolMessage,
} from "../_mcp.ts";
import { fileUri } from "../../plugins/mcp/roots.ts";
import { SAMPLING_DECLINED } from "../../plugins/mcp/sampling.ts";

const load = (...tools: string[]) => ({
  toolCalls: [{ name: "load_mcp_tool", arguments: { names: tools.map((t) => `mcp__t__${t}`) } }],
});

Deno.test("an unsupported protocol version is named; initialized is never sent", async () => {
  await using project = await mcpProject((root) => ({
    old: fixtureServer(root, "old", "--version=1999-01-01"),
    t: fixtureServer(root, "t"),
  }));
  await using model = scriptedModel([{ text: "done" }]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /MCP server old skipped: answered initialize with MCP protocol version 1999-01-01, which hel does not speak \(it speaks 2025-11-25, 2025-06-18, [^)]*\); use a version of the server that supports one of these\n/,
  );
  assert.deepEqual(await receivedMethods(project.logPath("old")), ["initialize"]);
  const listed = systemText(model.requests[0]!).split("\n").filter((l) => l.startsWith("- mcp__"));
  assert.ok(listed.length > 0 && listed.every((l) => l.startsWith("- mcp__t__")), listed.join());
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("a server that declares no tools capability but lists tools is used", async () => {
  await using project = await mcpProject((root) => ({
    t: fixtureServer(root, "t", "--undeclared-tools"),
  }));
  await using model = scriptedModel([
    load("echo"),
    { toolCalls: [{ id: "e", name: "mcp__t__echo", arguments: { text: "listed anyway" } }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(toolMessage(model, "e"), "listed anyway");
  assert.equal(model.remaining(), 0);
});

Deno.test("lines on stdout that are not MCP are skipped; split CRLF messages are read", async () => {
  await using project = await mcpProject((root) => ({
    t: { ...fixtureServer(root, "t", "--junk-stdout"), timeout: 20 },
  }));
  const separated = "one\u2028two";
  await using model = scriptedModel([
    load("echo", "fail"),
    {
      toolCalls: [
        { id: "e", name: "mcp__t__echo", arguments: { text: separated } },
        { id: "f", name: "mcp__t__fail", arguments: {} },
      ],
    },
    { text: "done" },
  ]);
  const { result, trace } = await helMcpTraced(project, model);
  assert.equal(toolMessage(model, "e"), separated);
  assert.equal(toolMessage(model, "f"), "error: tool failed");
  // Nothing of the junk reaches hel's own output or the model.
  const seen = result.stdout + result.stderr + JSON.stringify(model.requests.map((r) => r.body));
  for (const junk of ["banner", "red text", "invalid UTF-8", "\x1b[31m", '"id":\n']) {
    assert.ok(!seen.includes(junk), `${JSON.stringify(junk)} leaked: ${seen.slice(0, 2000)}`);
  }
  // The run log keeps a note of what was skipped.
  assert.ok(trace.some((e) => e.event === "protocol" && e.server === "t"), JSON.stringify(trace));
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("unknown, null, string and duplicate ids never answer the wrong call", async () => {
  await using project = await mcpProject((root) => ({
    t: { ...fixtureServer(root, "t", "--odd-ids"), timeout: 20 },
  }));
  await using model = scriptedModel([
    load("echo"),
    { toolCalls: [{ id: "first", name: "mcp__t__echo", arguments: { text: "first" } }] },
    { toolCalls: [{ id: "second", name: "mcp__t__echo", arguments: { text: "second" } }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  // The SDK matches ids by number, so "3" answers request 3 (documented in plugins/mcp/README.md);
  // the unknown id and the null id are dropped, and the duplicate never reaches the next call.
  assert.equal(toolMessage(model, "first"), "first");
  assert.equal(toolMessage(model, "second"), "second");
  assert.doesNotMatch(
    JSON.stringify(model.requests.map((r) => r.messages)),
    /unknown id|duplicate/,
  );
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("server requests: roots answered, sampling declined, a bad form refused, ping too", async () => {
  await using project = await mcpProject((root) => ({ t: fixtureServer(root, "t") }));
  await using model = scriptedModel([
    load("chatty"),
    { toolCalls: [{ id: "c", name: "mcp__t__chatty", arguments: {} }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(toolMessage(model, "c"), "chatted");
  const answers = new Map(
    (await readLog(project.logPath("t"))).filter((m) => String(m.id).startsWith("srv-"))
      // deno-lint-ignore no-explicit-any
      .map((m) => [m.id, m as any]),
  );
  assert.deepEqual(answers.get("srv-1")?.result, {
    roots: [{ uri: fileUri(project.project), name: project.project.split("/").at(-1) }],
  });
  assert.deepEqual(answers.get("srv-2")?.error, { code: -1, message: SAMPLING_DECLINED });
  // hel declares elicitation: a form without properties is invalid params, and no one is asked.
  assert.equal(answers.get("srv-3")?.error?.code, -32602);
  assert.deepEqual(answers.get("srv-4")?.result, {});
  // Nothing reached the user: no question about sampling or the elicitation's text.
  assert.doesNotMatch(result.stdout + result.stderr, /password|sampling|elicitation/);
  assert.equal(model.remaining(), 0);
});

Deno.test("an answer that is not valid JSON-RPC fails its call at once; the server stays", async () => {
  // A short timeout: were the answers dropped, the calls would read "timed out".
  await using project = await mcpProject((root) => ({
    t: { ...fixtureServer(root, "t", "--malformed-answers"), timeout: 5 },
  }));
  await using model = scriptedModel([
    load("echo", "fail", "structured", "image"),
    {
      toolCalls: [
        { id: "old", name: "mcp__t__echo", arguments: { text: "x" } },
        { id: "string", name: "mcp__t__fail", arguments: {} },
        { id: "both", name: "mcp__t__structured", arguments: {} },
      ],
    },
    { toolCalls: [{ id: "after", name: "mcp__t__image", arguments: {} }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  const failed = (why: string) =>
    `error: MCP error -32603: the server sent a malformed answer, not a JSON-RPC 2.0 response ` +
    `(${why}); the request failed`;
  assert.equal(toolMessage(model, "old"), failed('"jsonrpc" is "1.0", not "2.0"'));
  assert.equal(toolMessage(model, "string"), failed("its result is not an object"));
  assert.equal(toolMessage(model, "both"), failed("it has both a result and an error"));
  assert.equal(toolMessage(model, "after"), "[image: image/png, 8 B]\ncaption");
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("endless tools/list pagination stops the server with the reason", async () => {
  await using project = await mcpProject((root) => ({
    repeat: fixtureServer(root, "repeat", "--endless-cursor"),
    fresh: fixtureServer(root, "fresh", "--fresh-cursors"),
    t: fixtureServer(root, "t"),
  }));
  await using model = scriptedModel([{ text: "done" }]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /MCP server repeat skipped: repeated a tools\/list cursor \(endless listing\)\n/,
  );
  assert.match(result.stderr, /MCP server fresh skipped: listed more than 100 pages of tools\n/);
  const methods = await receivedMethods(project.logPath("fresh"));
  assert.equal(methods.filter((m) => m === "tools/list").length, 100);
  const listed = systemText(model.requests[0]!).split("\n").filter((l) => l.startsWith("- mcp__"));
  assert.ok(listed.length > 0 && listed.every((l) => l.startsWith("- mcp__t__")), listed.join());
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("hostile tool names and descriptions cannot shadow built-ins or drive the terminal", async () => {
  await using project = await mcpProject(
    (root) => ({ t: fixtureServer(root, "t", "--hostile-tools") }),
    { files: { "notes.txt": "the project's own notes\n" } },
  );
  await using model = scriptedModel([
    { toolCalls: [{ id: "own", name: "read_file", arguments: { path: "notes.txt" } }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  // read_file is still hel's own tool; the server's tool is only ever mcp__t__read_file.
  assert.match(toolMessage(model, "own"), /the project's own notes/);
  assert.equal((await receivedMethods(project.logPath("t"))).includes("tools/call"), false);
  const system = systemText(model.requests[0]!);
  assert.match(system, /^- mcp__t__read_file: IMPORTANT: before using any tool/m);
  assert.match(system, /^- mcp__t__bash: \\u001b\[2J\\u001b\[31mcleared/m);
  assert.match(system, /^- mcp__t_____etc_passwd: Odd characters in the name\.$/m);
  const raw = (text: string) => ["\x1b", "\x07", "\u202e"].some((c) => text.includes(c));
  assert.ok(!raw(system), "raw controls reached the model");
  // A 500-character name with a control in it is offered under a hashed name of 64 safe ones.
  assert.match(system, /^- mcp__t____31my{38}_[0-9a-f]{12}: A name of 500 characters\.$/m);
  assert.ok(!raw(result.stdout + result.stderr), "raw controls reached the terminal");
  assert.equal(model.remaining(), 0);
});

Deno.test("a line over maxMessageBytes that never ends fails its call at once", async () => {
  await using project = await mcpProject((root) => ({
    t: { ...fixtureServer(root, "t", "--unterminated"), timeout: 60, maxMessageBytes: 1048576 },
  }));
  await using model = scriptedModel([
    load("big"),
    // About 1.6 MB that never ends its line: the id at its start names the call to fail, so
    // the call does not wait for a line end (or its 60 s timeout).
    { toolCalls: [{ id: "huge", name: "mcp__t__big", arguments: { lines: 100_000 } }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    toolMessage(model, "huge"),
    /^error: MCP server t answered tools\/call with a message over the 1 MiB hel reads from it/,
  );
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});
