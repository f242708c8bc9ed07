/**
 * A remote server whose connection hel dropped (an answer over the entry's `maxMessageBytes`)
 * is reconnected by the next call, as a stdio server that exited is restarted: through the real
 * CLI with the scripted model and the SDK's Streamable HTTP fixture server.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { helMcpTraced, toolMessage, trustMcp } from "../_mcp.ts";
import { startHttpFixture } from "../_sdk_server.ts";

Deno.test("a remote server hel dropped is reconnected by the next call", async () => {
  await using project = await tempProject();
  await using server = await startHttpFixture("http_server.ts", `${project.root}/headers.jsonl`);
  await project.write(
    ".hel/mcp.json",
    JSON.stringify({ servers: { api: { url: server.url, maxMessageBytes: 1024 * 1024 } } }),
  );
  await trustMcp(project);
  await using model = scriptedModel([
    {
      toolCalls: [{
        name: "load_mcp_tool",
        arguments: { names: ["mcp__api__big", "mcp__api__whoami"] },
      }],
    },
    { toolCalls: [{ id: "big", name: "mcp__api__big", arguments: {} }] },
    { toolCalls: [{ id: "after", name: "mcp__api__whoami", arguments: {} }] },
    { text: "done" },
  ]);
  const { trace } = await helMcpTraced(project, model);
  assert.match(
    toolMessage(model, "big"),
    /^error: MCP server api went away while this call was running \(it sent a message over 1 MiB, more than hel reads from it \("maxMessageBytes" in its mcp\.json entry\), so hel closed the connection\)/,
  );
  assert.equal(toolMessage(model, "after"), "ok");
  assert.deepEqual(trace.filter((e) => e.event === "restarted").map((e) => e.server), ["api"]);
  const last = model.requests.at(-1)!.messages.map((m) => String(m.content)).join("\n");
  assert.match(last, /MCP server api was restarted \(it sent a message over 1 MiB/);
  assert.equal(model.remaining(), 0);
});
