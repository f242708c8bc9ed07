/**
 * Large messages from MCP servers, through the real CLI with the scripted model: a result of
 * 20 MiB arrives whole and is spilled; a message over the server's `maxMessageBytes` fails only
 * the call it answers (its id read from the start of the line for the Python fixture, from the
 * end for the SDK's servers), and the next call to the same server works.
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
  receivedCalls,
  toolMessage,
} from "../_mcp.ts";
import { sdkFixtureServer } from "../_sdk_server.ts";

const load = (server: string, ...tools: string[]) => ({
  toolCalls: [{
    name: "load_mcp_tool",
    arguments: { names: tools.map((tool) => `mcp__${server}__${tool}`) },
  }],
});

Deno.test("a 20 MiB result is received whole and spilled to a file", async () => {
  await using project = await mcpProject((root) => ({
    t: { ...fixtureServer(root, "t"), timeout: 30 },
  }));
  const lines = 1_400_000; // 15 bytes each: 21 MB of text, 22.4 MB as JSON
  await using model = scriptedModel([
    load("t", "big"),
    { toolCalls: [{ id: "big", name: "mcp__t__big", arguments: { lines } }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  const message = toolMessage(model, "big");
  assert.match(message, /^line of output\n/);
  const saved = message.match(/The full result is saved at (\S+\.txt)/)?.[1];
  assert.ok(saved, message.slice(0, 2000));
  const text = await Deno.readTextFile(saved);
  assert.equal(text.length, 15 * lines);
  assert.ok(text === "line of output\n".repeat(lines));
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("a message over maxMessageBytes fails its call; the server stays and answers the next", async () => {
  await using project = await mcpProject((root) => ({
    t: { ...fixtureServer(root, "t"), timeout: 30, maxMessageBytes: 1024 * 1024 },
  }));
  await using model = scriptedModel([
    load("t", "big", "echo"),
    // The id comes first in the Python server's line: the call fails as soon as the line goes
    // over, not when it ends.
    // 100,000 lines of 15: about 1.6 MB in one JSON-RPC line, over the 1 MiB set.
    { toolCalls: [{ id: "huge", name: "mcp__t__big", arguments: { lines: 100_000 } }] },
    { toolCalls: [{ id: "later", name: "mcp__t__echo", arguments: { text: "still here" } }] },
    { text: "done" },
  ]);
  const { trace } = await helMcpTraced(project, model);
  assert.match(
    toolMessage(model, "huge"),
    /^error: MCP server t answered tools\/call with a message over the 1 MiB hel reads from it \("maxMessageBytes" in its mcp\.json entry\), so hel skipped the answer and this request failed; the server stays connected\./,
  );
  assert.equal(toolMessage(model, "later"), "still here");
  assert.equal((await receivedCalls(project.logPath("t"))).length, 2);
  assert.ok(
    trace.some((e) => e.event === "call" && e.status === "oversize"),
    JSON.stringify(trace),
  );
  assert.ok(!trace.some((e) => e.event === "disconnected"));
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("an SDK server's oversized answer (its id after the result) fails only that call", async () => {
  await using project = await mcpProject((root) => ({
    s: {
      ...sdkFixtureServer(root, "results_server.ts", "s"),
      timeout: 30,
      maxMessageBytes: 1024 * 1024,
    },
  }));
  await using model = scriptedModel([
    load("s", "big", "echo"),
    {
      toolCalls: [
        { id: "huge", name: "mcp__s__big", arguments: { bytes: 3 * 1024 * 1024 } },
        { id: "fits", name: "mcp__s__big", arguments: { bytes: 1000 } },
      ],
    },
    { toolCalls: [{ id: "later", name: "mcp__s__echo", arguments: { text: "still here" } }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    toolMessage(model, "huge"),
    /^error: MCP server s answered tools\/call with 3\.0 MiB/,
  );
  assert.equal(toolMessage(model, "fits"), "x".repeat(1000));
  assert.equal(toolMessage(model, "later"), "still here");
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});
