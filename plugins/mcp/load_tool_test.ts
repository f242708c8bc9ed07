import assert from "node:assert/strict";
import { buildCatalog } from "./catalog.ts";
import { createLoadTool } from "./load_tool.ts";

const catalog = await buildCatalog([{
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
  const empty = await tool.run({ names: [] }, context);
  assert.equal(empty.ok, false);
  assert.match(empty.text, /needs a non-empty "names" list/);
  const cases: [Record<string, unknown>, string][] = [
    [{}, "names is required but missing"],
    [{ names: "mcp__inventory__lookup_port" }, "names must be an array, not string"],
    [{ names: [1] }, "names[0] must be a string, not integer"],
  ];
  for (const [args, text] of cases) {
    assert.deepEqual(tool.checkArguments?.(args), { ok: false, problems: [text] });
  }
  const unknown = await tool.run({ names: ["nope"] }, context);
  assert.equal(unknown.ok, false);
});

Deno.test("load_mcp_tool: a listed tool whose schema does not compile is refused at load", async () => {
  const listed = await buildCatalog([{
    name: "inventory",
    tools: [
      { name: "lookup_port", inputSchema: { type: "object" } },
      // Passes the cheap look at listing time (an anchor), fails ajv's compile.
      { name: "anchored", inputSchema: { type: "object", properties: { a: { $ref: "#x" } } } },
    ],
  }], new Set());
  assert.deepEqual(listed.entries.map((entry) => entry.toolName), ["anchored", "lookup_port"]);
  const loaded = new Set<string>();
  const tool = createLoadTool(listed, loaded);
  const result = await tool.run({ names: ["mcp__inventory__anchored"] }, context);
  assert.deepEqual(result, {
    ok: false,
    text: "mcp__inventory__anchored: cannot be loaded: its inputSchema cannot be checked: " +
      "can't resolve reference #x from id #, so hel cannot check calls to it; use another " +
      "tool, or tell the user",
  });
  assert.deepEqual([...loaded], []);
});
