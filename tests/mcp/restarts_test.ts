/**
 * Servers that go away during a run come back: the call in flight fails and is not sent again,
 * the next call starts the server again (its loaded tools still loaded), the model is told once
 * per restart, and after three restarts a server that keeps crashing is given up. Through the
 * real CLI with the scripted model and the Python fixture server, whose `die` tool exits.
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
  toolMessage,
} from "../_mcp.ts";

const call = (id: string, tool: string, args: Record<string, unknown> = {}) => ({
  toolCalls: [{ id, name: `mcp__t__${tool}`, arguments: args }],
});

Deno.test("a server that dies is restarted by the next call, three times; the fourth death gives it up", async () => {
  await using project = await mcpProject((root) => ({
    t: { ...fixtureServer(root, "t"), timeout: 10 },
  }));
  await using model = scriptedModel([
    {
      toolCalls: [{ name: "load_mcp_tool", arguments: { names: ["mcp__t__die", "mcp__t__echo"] } }],
    },
    call("die1", "die"),
    call("echo1", "echo", { text: "back once" }),
    call("die2", "die"),
    call("echo2", "echo", { text: "back twice" }),
    call("die3", "die"),
    call("echo3", "echo", { text: "back three times" }),
    call("die4", "die"),
    call("echo4", "echo", { text: "not again" }),
    call("echo5", "echo", { text: "still not" }),
    { text: "done" },
  ]);
  const { result, trace } = await helMcpTraced(project, model);
  // The call in flight fails, says it was not sent again, and that the next call restarts.
  assert.equal(
    toolMessage(model, "die1"),
    "error: MCP server t went away while this call was running (it exited with code 3), so the " +
      "call failed; hel does not send it again, as it may have had effects. Check whether it did " +
      "before repeating it: the next call to one of the server's tools starts the server again.",
  );
  // The next call works, without loading the tool again.
  assert.equal(toolMessage(model, "echo1"), "back once");
  assert.equal(toolMessage(model, "echo2"), "back twice");
  assert.equal(toolMessage(model, "echo3"), "back three times");
  const gaveUp =
    "error: MCP server t went away again (it exited with code 3) after hel restarted " +
    "it 3 times in this run, so hel gave up on it: its tools cannot be used for the rest of this " +
    "run. Continue without them, or tell the user the server keeps crashing.";
  assert.equal(toolMessage(model, "echo4"), gaveUp);
  assert.equal(toolMessage(model, "echo5"), gaveUp);
  // The model is told of each restart once, with the request after the call that restarted it
  // (the conversation keeps the notes, so the last request holds each exactly once).
  const notesIn = (index: number) =>
    model.requests[index]!.messages.filter((m) =>
      m.role === "user" && /was restarted/.test(String(m.content))
    ).map((m) => String(m.content));
  const last = notesIn(model.requests.length - 1);
  assert.equal(last.length, 3, JSON.stringify(last));
  assert.match(
    last[0]!,
    /^\[hel: this note is from hel, not from the user\]\nMCP server t was restarted \(it exited with code 3; restart 1 of at most 3 in this run\)\. Its tools were listed again; loaded tools that still exist stay loaded\./,
  );
  assert.match(last[2]!, /restart 3 of at most 3/);
  // Requests: 0 go, 1 after loading, 2 after die1, 3 after echo1 (the first note).
  assert.deepEqual([2, 3, 5, 7].map((index) => notesIn(index).length), [0, 1, 2, 3]);
  // Four processes started, each initialized and listed once; every die reached a server once.
  const log = await readLog(project.logPath("t"));
  assert.equal(log.filter((m) => "started" in m).length, 4);
  assert.equal(log.filter((m) => m.method === "initialize").length, 4);
  const calls = log.filter((m) => m.method === "tools/call") as { params: { name: string } }[];
  assert.deepEqual(calls.map((c) => c.params.name), [
    "die",
    "echo",
    "die",
    "echo",
    "die",
    "echo",
    "die",
  ]);
  // The run's trace has each restart and the giving up; the stderr of the last stays out of
  // hel's output and the model's view.
  const restarted = trace.filter((e) => e.event === "restarted");
  assert.deepEqual(restarted.map((e) => e.restart), [1, 2, 3]);
  assert.equal(restarted[0]!.loss, "it exited with code 3");
  assert.equal(trace.filter((e) => e.event === "gave_up").length, 1);
  assert.doesNotMatch(result.stderr + result.stdout, /exiting on purpose/);
  assert.ok(
    model.requests.every((r) => !JSON.stringify(r.messages).includes("exiting on purpose")),
  );
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test('a server that died and was restarted leaves nothing of its group behind ("sandbox": false)', async () => {
  // The dead server's child (a `sleep` in its process group, as behind `npx`) outlives it; hel
  // must shut that group down before it starts the server again, not leave it to the machine.
  await using project = await mcpProject((root) => ({
    t: { ...fixtureServer(root, "t", "--grandchild"), sandbox: false, timeout: 10 },
  }));
  await using model = scriptedModel([
    {
      toolCalls: [{ name: "load_mcp_tool", arguments: { names: ["mcp__t__die", "mcp__t__echo"] } }],
    },
    call("die1", "die"),
    call("echo1", "echo", { text: "back" }),
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(toolMessage(model, "echo1"), "back");
  await assertNoServerLeft(project);
});
