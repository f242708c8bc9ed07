/**
 * MCP server lifecycle end to end: servers that fail to start are skipped while the others
 * work, every exit path (normal, Ctrl-C, a server that ignores SIGTERM and has a child of its
 * own) leaves no server process behind, Ctrl-C in the chat cancels only the call in flight, and
 * a resumed session reconnects with nothing loaded.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel, spawnHel } from "../_helpers.ts";
import { savedSession } from "../_journal.ts";
import { helOnTerminal } from "../_terminal.ts";
import {
  assertNoServerLeft,
  eventually,
  FAST,
  fixtureServer,
  helMcp,
  helMcpTraced,
  mcpProject,
  modelArgs,
  processesWithMarker,
  readLog,
  receivedMethods,
  runHel,
  slowStartRunArgs,
  systemText,
  TEST_SERVER,
  toolMessage,
  untilServerStarting,
} from "../_mcp.ts";

Deno.test("servers that fail to start are skipped with the reason; the others carry on", async () => {
  await using project = await mcpProject((root) => ({
    t: fixtureServer(root, "t"),
    missing: { command: "/nonexistent/mcp-server" },
    silent: fixtureServer(root, "silent", "--silent"),
    crash: fixtureServer(root, "crash", "--crash"),
    refuse: fixtureServer(root, "refuse", "--refuse"),
    garbage: fixtureServer(root, "garbage", "--garbage"),
    notools: fixtureServer(root, "notools", "--no-tools"),
    // An "npx" (here a stand-in that never answers) may be downloading on its first run. It
    // lies in the project, which the sandbox shows, and so does the server it runs: a script
    // it names but the entry does not would be hidden wherever the sandbox covers it.
    fetching: {
      command: "npx",
      env: { PATH: `${root}/project/bin:${Deno.env.get("PATH")}` },
    },
  }), {
    files: {
      "bin/npx": `#!/bin/sh\nexec python3 "$(dirname "$0")/server.py" --log "$0.jsonl" --silent\n`,
      "bin/server.py": await Deno.readTextFile(TEST_SERVER),
    },
  });
  await Deno.chmod(`${project.project}/bin/npx`, 0o755);
  await using model = scriptedModel([{ text: "done" }]);
  const result = await helMcp(project, model, ["--mcp-startup-timeout", "1.5"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /MCP server missing skipped: command "\/nonexistent\/mcp-server" was not found/,
  );
  assert.match(
    result.stderr,
    /MCP server silent skipped: did not finish initialize within the startup time \(1\.5 s\); hel stopped it\. Run the command by hand to check that it answers MCP on its standard output\n/,
  );
  assert.match(
    result.stderr,
    /MCP server fetching skipped: did not finish initialize within the startup time \(1\.5 s\); hel stopped it\. A first npx run may still be downloading the server: run the command once by hand, then start hel again, or give it longer with --mcp-startup-timeout SECONDS\n/,
  );
  // A server that dies at start is reported with the end of its stderr.
  assert.match(
    result.stderr,
    /MCP server crash skipped: exited during initialize \(it exited with code 1\); its stderr ends: fixture: cannot start: configuration missing/,
  );
  // A server that answers badly is named for its answer, not for the exit that hel's
  // shutdown caused afterwards.
  assert.match(
    result.stderr,
    /MCP server refuse skipped: answered initialize with MCP error -32603: no licence for this machine\n/,
  );
  assert.match(
    result.stderr,
    /MCP server garbage skipped: answered initialize with a result MCP does not allow \(protocolVersion: [^\n]*; capabilities: [^\n]*\)\n/,
  );
  // A server made for resources and prompts is named for what it is, not as a failure.
  assert.match(
    result.stderr,
    /MCP server notools skipped: offers no tools \(it declares prompts, resources\); hel uses only MCP tools, so there is nothing to connect\. Remove it from \.hel\/mcp\.json if it is not meant to be used here\n/,
  );
  const listed = systemText(model.requests[0]!).split("\n").filter((l) => l.startsWith("- mcp__"));
  assert.ok(listed.length > 0);
  assert.ok(listed.every((line) => line.startsWith("- mcp__t__")), listed.join("\n"));
  // hel never cancels initialize: it stops the server instead.
  assert.deepEqual(await receivedMethods(project.logPath("silent")), ["initialize"]);
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

// Unsandboxed ("sandbox": false) the process-group sequence does all the work: the parent's
// child (which does not read the server's input) goes with SIGTERM to the group, the stubborn
// server only with SIGKILL. Sandboxed, the server is the sandbox's only program: whatever it
// started ends with it (its pid namespace goes), and SIGTERM ends bubblewrap, which takes the
// stubborn server with it.
for (
  const [sandbox, expected] of [
    [false, [["parent", "sigterm"], ["plain", "stdin"], ["stubborn", "sigkill"]]],
    [true, [["parent", "stdin"], ["plain", "stdin"], ["stubborn", "sigterm"]]],
  ] as const
) {
  Deno.test(
    `shutdown closes input, then SIGTERM, then SIGKILL to the group; nothing is left (${
      sandbox ? "sandboxed" : '"sandbox": false'
    })`,
    async () => {
      await using project = await mcpProject((root) => ({
        plain: { ...fixtureServer(root, "plain"), sandbox },
        parent: { ...fixtureServer(root, "parent", "--grandchild"), sandbox },
        stubborn: { ...fixtureServer(root, "stubborn", "--stubborn", "--grandchild"), sandbox },
      }));
      let liveDuringRun = 0;
      await using model = scriptedModel([
        (request) => {
          assert.match(systemText(request), /mcp__stubborn__echo/);
          liveDuringRun = processesWithMarker(project.marker).length;
          return { text: "done" };
        },
      ]);
      const { trace } = await helMcpTraced(project, model, [], { run: runHel });
      // Three servers and two children were alive during the run (so the check below can fail).
      assert.equal(liveDuringRun, 5);
      const steps = trace
        .filter((e) => e.event === "shutdown").map((e) => [e.server, e.step]).sort();
      assert.deepEqual(steps, expected);
      assert.equal(model.remaining(), 0);
      await assertNoServerLeft(project);
    },
  );
}

for (
  const [signal, code, name] of [
    ["SIGINT", 130, "Ctrl-C during a call cancels it, shuts the servers down, and exits 130"],
    ["SIGTERM", 143, "SIGTERM to hel during a call shuts the servers down before hel exits"],
    [
      "SIGHUP",
      129,
      "a hang-up (SIGHUP) during a call shuts the servers down before hel exits",
    ],
  ] as const
) {
  Deno.test(name, async () => {
    await using project = await mcpProject((root) => ({
      t: { ...fixtureServer(root, "t", "--stubborn", "--grandchild"), timeout: 60 },
    }));
    await using model = scriptedModel([
      { toolCalls: [{ name: "load_mcp_tool", arguments: { names: ["mcp__t__slow"] } }] },
      { toolCalls: [{ id: "slow", name: "mcp__t__slow", arguments: { seconds: 30 } }] },
      { text: "not reached" },
    ]);
    const child = spawnHel(project, [
      ...modelArgs(model),
      "--tools",
      "read_file",
      ...FAST,
      "-i",
      "go",
    ]);
    const log = project.logPath("t");
    await eventually(
      async () => (await receivedMethods(log)).includes("tools/call"),
      "the slow call to reach the server",
    );
    child.kill(signal);
    const output = await child.output();
    assert.equal(output.code, code, new TextDecoder().decode(output.stderr));
    // The call in flight is cancelled on the wire before the servers are shut down.
    const messages = await readLog(log);
    const call = messages.find((m) => m.method === "tools/call") as { id: number };
    const cancel = messages.find((m) => m.method === "notifications/cancelled") as {
      params: { requestId: number };
    };
    assert.equal(cancel?.params.requestId, call.id);
    assert.equal(model.remaining(), 1);
    await assertNoServerLeft(project);
  });
}

Deno.test("Ctrl-C while servers are still starting leaves no server behind", async () => {
  await using project = await mcpProject((root) => ({
    silent: fixtureServer(root, "silent", "--silent", "--stubborn", "--grandchild"),
  }));
  await using model = scriptedModel([{ text: "not reached" }]);
  const child = spawnHel(project, slowStartRunArgs(model));
  await untilServerStarting(project, "silent");
  child.kill("SIGINT");
  const output = await child.output();
  assert.equal(output.code, 130, new TextDecoder().decode(output.stderr));
  assert.equal(model.requests.length, 0);
  await assertNoServerLeft(project);
});

Deno.test("hel mcp list stops a server that is starting when Ctrl-C comes, before leaving", async () => {
  await using project = await mcpProject((root) => ({
    silent: fixtureServer(root, "silent", "--silent", "--grandchild"),
  }));
  const child = spawnHel(project, ["--mcp-startup-timeout", "60", "mcp", "list"]);
  await untilServerStarting(project, "silent");
  child.kill("SIGINT");
  const output = await child.output();
  assert.equal(output.code, 130, new TextDecoder().decode(output.stderr));
  await assertNoServerLeft(project);
});

Deno.test("a resumed session reconnects, lists afresh and starts with nothing loaded", async () => {
  await using project = await mcpProject((root) => ({ t: fixtureServer(root, "t") }));
  await using model = scriptedModel([
    { toolCalls: [{ name: "load_mcp_tool", arguments: { names: ["mcp__t__echo"] } }] },
    { toolCalls: [{ id: "c2", name: "mcp__t__echo", arguments: { text: "8437" } }] },
    { text: "port is 8437" },
    { toolCalls: [{ id: "c3", name: "mcp__t__echo", arguments: { text: "again" } }] },
    { text: "done" },
  ]);
  const first = await helMcp(project, model);
  assert.equal(first.code, 0, first.stderr);
  const id = first.stderr.match(/session: ([0-9a-f-]{36})/)?.[1];
  assert.ok(id, first.stderr);
  // The journal keeps the conversation only: no MCP state (servers, catalog, loaded set).
  const saved = await savedSession(project.project, id);
  assert.ok(!("mcp" in saved.plugins), JSON.stringify(saved.plugins));
  const second = await runHel(
    [...modelArgs(model), "--tools", "read_file", ...FAST, "--resume", id, "-i", "again"],
    { cwd: project.project },
  );
  assert.equal(second.code, 0, second.stderr);
  const names = model.requests.map((request) => request.toolNames);
  assert.deepEqual(names, [
    ["read_file", "load_mcp_tool"],
    ["read_file", "load_mcp_tool", "mcp__t__echo"],
    ["read_file", "load_mcp_tool", "mcp__t__echo"],
    ["read_file", "load_mcp_tool"],
    ["read_file", "load_mcp_tool"],
  ]);
  for (const request of model.requests) {
    assert.match(systemText(request), /^- mcp__t__echo: Echo text back\.$/m);
  }
  // The resumed conversation still holds the earlier call; calling again needs a load first.
  assert.ok(model.requests[3]!.messages.some((m) => m.tool_call_id === "c2"));
  assert.equal(
    toolMessage(model, "c3"),
    "error: mcp__t__echo is not loaded; call load_mcp_tool with this name first",
  );
  const methods = await receivedMethods(project.logPath("t"));
  assert.equal(methods.filter((m) => m === "initialize").length, 2);
  assert.equal(methods.filter((m) => m === "tools/call").length, 1);
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("in the chat, Ctrl-C cancels the call on the wire, the chat and its loaded tools go on, leaving stops the servers", async () => {
  await using project = await mcpProject((root) => ({
    t: { ...fixtureServer(root, "t", "--stubborn", "--grandchild"), timeout: 60 },
  }));
  await using model = scriptedModel([
    {
      toolCalls: [{
        name: "load_mcp_tool",
        arguments: { names: ["mcp__t__slow", "mcp__t__echo"] },
      }],
    },
    { toolCalls: [{ id: "slow", name: "mcp__t__slow", arguments: { seconds: 30 } }] },
    { toolCalls: [{ id: "echo", name: "mcp__t__echo", arguments: { text: "second turn" } }] },
    { text: "done" },
  ]);
  const log = project.logPath("t");
  const run = helOnTerminal(project, [...modelArgs(model), "--tools", "read_file", ...FAST]);
  await run.waitFor("> ");
  await run.type("first\r");
  await eventually(async () => (await receivedMethods(log)).includes("tools/call"), "the call");
  await run.type("\x03");
  await run.waitFor("hel: interrupted");
  await run.type("second\r");
  await run.waitFor("done");
  const finished = await run.finish();
  assert.equal(finished.code, 0, finished.output);
  assert.equal(
    toolMessage(model, "slow"),
    "error: interrupted by the user; the slow request to MCP server t was cancelled",
  );
  // The same server answers the next turn; the tool loaded before Ctrl-C is still loaded.
  assert.equal(toolMessage(model, "echo"), "second turn");
  const messages = await readLog(log);
  const calls = messages.filter((m) => m.method === "tools/call") as { id: number }[];
  const cancels = messages.filter((m) => m.method === "notifications/cancelled") as {
    params: { requestId: number };
  }[];
  assert.deepEqual(cancels.map((c) => c.params.requestId), [calls[0]!.id]);
  assert.equal(messages.filter((m) => m.method === "initialize").length, 1);
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});
