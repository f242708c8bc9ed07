/**
 * Progress keeps an MCP call alive: every `tools/call` carries a progress token, each progress
 * report restarts the server's `timeout`, and a hard maximum (10 times the timeout) cancels a
 * call that reports progress for ever. A call that reports nothing times out as before.
 * Timings are loose on purpose (timeout 1 s, a report every 0.3 s; 0.5 s and 10 ms for the
 * maximum): only the behaviour decides.
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

const progressServer = (root: string, timeout = 1) => ({
  t: { ...fixtureServer(root, "t", "--progress-tools"), timeout },
});

const load = (...names: string[]) => ({
  toolCalls: [{ name: "load_mcp_tool", arguments: { names } }],
});

Deno.test("a call that keeps reporting progress outlives its timeout and its result reaches the model", async () => {
  await using project = await mcpProject(progressServer);
  await using model = scriptedModel([
    load("mcp__t__progress"),
    {
      toolCalls: [{
        id: "long",
        name: "mcp__t__progress",
        arguments: { interval: 0.3, duration: 2.5 },
      }],
    },
    { text: "done" },
  ]);
  const { result, trace } = await helMcpTraced(project, model);
  assert.match(toolMessage(model, "long"), /^progress done after \d+ reports$/);
  const log = await readLog(project.logPath("t"));
  // deno-lint-ignore no-explicit-any
  const call = log.find((m) => m.method === "tools/call") as any;
  assert.equal(typeof call?.params?._meta?.progressToken, "number", JSON.stringify(call));
  assert.ok(!log.some((m) => m.method === "notifications/cancelled"), JSON.stringify(log));
  // Progress reaches neither the model nor hel's output; the trace keeps one summary.
  assert.ok(model.requests.every((r) => !JSON.stringify(r.messages).includes("step 2")));
  assert.doesNotMatch(result.stdout + result.stderr, /step 2/);
  const calls = trace.filter((e) => e.event === "call");
  assert.equal(calls.length, 1, JSON.stringify(calls));
  // deno-lint-ignore no-explicit-any
  const only = calls[0] as any;
  const progress = only.progress;
  assert.equal(only.status, "ok");
  assert.ok(progress.count >= 2, JSON.stringify(only));
  assert.equal(progress.last.message, `step ${progress.count}`);
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("a call that reports progress for ever is cancelled at its maximum", async () => {
  // A half-second timeout keeps the wait for the maximum (10 times the timeout) at 5 s.
  await using project = await mcpProject((root) => progressServer(root, 0.5));
  await using model = scriptedModel([
    load("mcp__t__progress_forever", "mcp__t__echo"),
    // A report every 10 ms: a flood the trace must coalesce (the catalogue's case A16).
    {
      toolCalls: [{
        id: "endless",
        name: "mcp__t__progress_forever",
        arguments: { interval: 0.01 },
      }],
    },
    { toolCalls: [{ id: "after", name: "mcp__t__echo", arguments: { text: "still here" } }] },
    { text: "done" },
  ]);
  const { trace } = await helMcpTraced(project, model);
  assert.match(
    toolMessage(model, "endless"),
    /^error: MCP request tools\/call to t ran past its maximum of 5 seconds despite reporting progress \(\d+ reports\); the request was cancelled and the server keeps running\. Progress restarts the server's 0\.5-second timeout, but no call may run longer than 10 times that\. Do not repeat the same call: /,
  );
  // Cancelled on the wire, and the same server answers the next call.
  const log = await readLog(project.logPath("t"));
  const call = log.find((m) => m.method === "tools/call") as { id: number };
  const cancels = log.filter((m) => m.method === "notifications/cancelled") as {
    params: { requestId: number };
  }[];
  assert.deepEqual(cancels.map((c) => c.params.requestId), [call.id]);
  assert.equal(toolMessage(model, "after"), "still here");
  assert.equal(log.filter((m) => "started" in m).length, 1);
  // Hundreds of reports came in; the trace holds one entry for the call, not one per report.
  const calls = trace.filter((e) => e.event === "call");
  assert.deepEqual(calls.map((c) => c.status), ["maximum", "ok"]);
  // deno-lint-ignore no-explicit-any
  const endless = calls[0] as any;
  assert.ok(endless.progress.count >= 50, JSON.stringify(endless));
  assert.ok(trace.filter((e) => e.event === "protocol").length <= 1, JSON.stringify(trace));
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("a silent slow call still times out at the server's timeout", async () => {
  await using project = await mcpProject(progressServer);
  await using model = scriptedModel([
    load("mcp__t__slow"),
    { toolCalls: [{ id: "silent", name: "mcp__t__slow", arguments: { seconds: 2.5 } }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    toolMessage(model, "silent"),
    "error: MCP request tools/call to t timed out after 1 second; the request was cancelled " +
      "and the server keeps running. Try again only if the task needs it, perhaps with a " +
      "smaller request, or continue without this result.",
  );
  const log = await readLog(project.logPath("t"));
  const call = log.find((m) => m.method === "tools/call") as { id: number };
  const cancels = log.filter((m) => m.method === "notifications/cancelled") as {
    params: { requestId: number };
  }[];
  assert.deepEqual(cancels.map((c) => c.params.requestId), [call.id]);
  assert.equal(model.remaining(), 0);
});

Deno.test("a call that stops reporting progress times out a timeout after its last report", async () => {
  await using project = await mcpProject(progressServer);
  await using model = scriptedModel([
    load("mcp__t__progress"),
    {
      toolCalls: [{
        id: "stalled",
        name: "mcp__t__progress",
        arguments: { interval: 0.3, duration: 1.5, answer: false },
      }],
    },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    toolMessage(model, "stalled"),
    /^error: MCP request tools\/call to t timed out: no answer or progress for 1 second after \d+ progress reports; the request was cancelled and the server keeps running\. /,
  );
  const log = await readLog(project.logPath("t"));
  assert.equal(log.filter((m) => m.method === "notifications/cancelled").length, 1);
  assert.equal(model.remaining(), 0);
});
