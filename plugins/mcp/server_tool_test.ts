import assert from "node:assert/strict";
import { buildCatalog } from "./catalog.ts";
import { serverTool } from "./server_tool.ts";

const catalog = await buildCatalog([{
  name: "github",
  tools: [{
    name: "create_issue",
    description: "Opens an issue",
    inputSchema: { type: "object", properties: { title: { type: "string" } } },
  }],
}], new Set());

Deno.test("an MCP tool shows its server, its own name and the arguments, and offers the server as the rule", async () => {
  const calls: unknown[] = [];
  const tool = serverTool(catalog.entries[0]!, {
    call: (name, args) => {
      calls.push([name, args]);
      return Promise.resolve({ ok: true, text: "opened #7" });
    },
  });
  assert.equal(tool.name, "mcp__github__create_issue");
  assert.equal(tool.toolClass, "execute");
  const args = { title: "Crash on start" };
  assert.deepEqual(await tool.describeCall!(args), {
    preview: { kind: "arguments", args, server: "github", tool: "create_issue" },
    scope: { kind: "server", server: "github" },
  });
  // Describing a call does not make it.
  assert.deepEqual(calls, []);
  const result = await tool.run(args, { callId: "c", signal: new AbortController().signal });
  assert.deepEqual(result, { ok: true, text: "opened #7" });
  assert.deepEqual(calls, [["create_issue", args]]);
});
