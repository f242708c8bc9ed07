/**
 * A resource read restarts a server that went away, as a tool call does (restarts.ts): through
 * the real CLI with the scripted model and the SDK fixture server (fixtures/mcp/lists_server.ts),
 * whose `change` tool with `exit` makes it exit.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import { helMcpTraced, mcpProject, readLog, toolMessage } from "../_mcp.ts";
import { sdkFixtureServer } from "../_sdk_server.ts";

const name = (tool: string) => `mcp__lists__${tool}`;

Deno.test("a resource read after the server died starts it again and reads", async () => {
  await using project = await mcpProject((root) => ({
    lists: sdkFixtureServer(root, "lists_server.ts", "lists"),
  }));
  await using model = scriptedModel([
    {
      toolCalls: [{
        name: "load_mcp_tool",
        arguments: { names: [name("change"), name("read_resource")] },
      }],
    },
    { toolCalls: [{ id: "exit", name: name("change"), arguments: { action: "exit" } }] },
    {
      toolCalls: [{
        id: "read",
        name: name("read_resource"),
        arguments: { uri: "lists://doc/readme" },
      }],
    },
    { text: "done" },
  ]);
  const { trace } = await helMcpTraced(project, model);
  assert.match(toolMessage(model, "exit"), /^error: MCP server lists went away while this call/);
  assert.equal(
    toolMessage(model, "read"),
    "[resource: lists://doc/readme, text/plain]\nThe readme of the lists server.",
  );
  const restarted = trace.filter((e) => e.event === "restarted");
  assert.deepEqual(restarted.map((e) => [e.server, e.restart]), [["lists", 1]]);
  // The read reached the server once, after it was started again.
  const log = await readLog(project.logPath("lists"));
  const methods = log.map((e) => e.method).filter((m) => m !== undefined);
  const reads = methods.flatMap((m, i) => m === "resources/read" ? [i] : []);
  assert.equal(reads.length, 1);
  assert.ok(methods.lastIndexOf("tools/list") < reads[0]!, "listed again before the read");
  assert.equal(model.remaining(), 0);
});
