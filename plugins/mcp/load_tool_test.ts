import assert from "node:assert/strict";
import { buildCatalog } from "./catalog.ts";
import { createLoadTool } from "./load_tool.ts";

const catalog = buildCatalog([{
  name: "inventory",
  tools: [
    { name: "lookup_port", inputSchema: { type: "object" } },
    { name: "list_services", inputSchema: { type: "object" } },
    { name: "broken", inputSchema: { type: "string" } },
  ],
}], new Set());
const context = { callId: "c", signal: new AbortController().signal };

Deno.test("load_mcp_tool: one line per name; loaded names join the set in order", async () => {
  const loaded = new Set<string>();
  const tool = createLoadTool(catalog, loaded);
  assert.equal(tool.toolClass, "read");
  const result = await tool.run({
    names: ["mcp__inventory__lookup_port", "lookup_port", "mcp__inventory__broken", "mcp__x__y"],
  }, context);
  assert.equal(result.ok, true);
  assert.deepEqual(result.text.split("\n"), [
    "mcp__inventory__lookup_port: loaded; callable from the next request",
    "lookup_port: unknown MCP tool; did you mean mcp__inventory__lookup_port?",
    'mcp__inventory__broken: cannot be loaded: it has no object inputSchema (model APIs need "type": "object")',
    "mcp__x__y: unknown MCP tool; use a name from the MCP tool list in the system message",
  ]);
  assert.deepEqual([...loaded], ["mcp__inventory__lookup_port"]);
  const again = await tool.run({ names: ["mcp__inventory__lookup_port"] }, context);
  assert.deepEqual(again, { ok: true, text: "mcp__inventory__lookup_port: already loaded" });
});

Deno.test("load_mcp_tool: no usable name is a failure that says what to send", async () => {
  const tool = createLoadTool(catalog, new Set());
  for (
    const args of [{}, { names: [] }, { names: "mcp__inventory__lookup_port" }, { names: [1] }]
  ) {
    const result = await tool.run(args, context);
    assert.equal(result.ok, false);
    assert.match(result.text, /needs a non-empty "names" list/);
  }
  const unknown = await tool.run({ names: ["nope"] }, context);
  assert.equal(unknown.ok, false);
});
