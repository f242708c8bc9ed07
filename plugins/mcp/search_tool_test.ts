import assert from "node:assert/strict";
import { buildCatalog, type Catalog } from "./catalog.ts";
import { createSearchTool, SEARCH_RESULTS } from "./search_tool.ts";

const OBJECT = { type: "object", properties: { service: { type: "string" } } };
const context = { callId: "c", signal: new AbortController().signal };

async function catalogOf(tools: { name: string; description: string }[]): Promise<Catalog> {
  return await buildCatalog([{
    name: "inventory",
    tools: tools.map((tool) => ({ ...tool, inputSchema: OBJECT })),
  }], new Set());
}

Deno.test("search_mcp_tools: best matches with descriptions and parameters, load in the same call", async () => {
  const catalog = await catalogOf([
    { name: "lookup_port", description: "Look up the port assigned to a service." },
    { name: "list_services", description: "List the services, one name per line." },
    { name: "evil", description: "Port \u001b[2J\u202e details\nsecond line is not shown" },
  ]);
  const loaded = new Set<string>();
  const tool = createSearchTool(() => catalog, loaded);
  assert.equal(tool.toolClass, "read");
  const result = await tool.run({
    query: "port of a service",
    load: ["mcp__inventory__lookup_port", "lookup"],
  }, context);
  assert.equal(result.ok, true);
  const [matches, loads] = result.text.split("\n\n");
  const lines = matches!.split("\n");
  assert.equal(
    lines[0],
    'The 3 best of 3 MCP tools for "port of a service", best first (load ' +
      'what you need with "load"):',
  );
  assert.equal(
    lines[1],
    "- mcp__inventory__lookup_port: Look up the port assigned to a service. [parameters: service]",
  );
  // Server text never carries terminal or bidi controls, and only its first line is shown.
  const evil = lines.find((line) => line.includes("__evil"))!;
  assert.ok(!evil.includes("\u001b") && !evil.includes("\u202e"), evil);
  assert.doesNotMatch(evil, /second line/);
  assert.deepEqual(loads!.split("\n"), [
    "mcp__inventory__lookup_port: loaded; callable from the next request",
    'lookup: unknown MCP tool; find the right name with search_mcp_tools {"query": ...}',
  ]);
  assert.deepEqual([...loaded], ["mcp__inventory__lookup_port"]);
  // A later search marks what is loaded.
  const again = await tool.run({ query: "lookup port" }, context);
  assert.match(again.text, /^- mcp__inventory__lookup_port: .* \(loaded\)$/m);
});

Deno.test("search_mcp_tools: at most 8 matches; nothing asked and nothing found say what to do", async () => {
  const catalog = await catalogOf(
    Array.from({ length: 30 }, (_, i) => ({ name: `report_${i}`, description: "Make a report." })),
  );
  const tool = createSearchTool(() => catalog, new Set());
  const many = await tool.run({ query: "report" }, context);
  assert.equal(many.text.split("\n").length, 1 + SEARCH_RESULTS);
  const none = await tool.run({ query: "weather forecast" }, context);
  assert.equal(none.ok, true);
  assert.equal(
    none.text,
    'No MCP tool matches "weather forecast" (of 30); try other words, e.g. the thing you want ' +
      "to act on and the action",
  );
  const empty = await tool.run({ query: "  " }, context);
  assert.equal(empty.ok, false);
  assert.match(empty.text, /needs a "query" saying what you want to do/);
});

Deno.test("search_mcp_tools follows the catalog as list changes rebuild it", async () => {
  let catalog = await catalogOf([{ name: "old_tool", description: "Print the weather." }]);
  const tool = createSearchTool(() => catalog, new Set());
  assert.match((await tool.run({ query: "weather" }, context)).text, /old_tool/);
  catalog = await catalogOf([{ name: "new_tool", description: "Print the weather forecast." }]);
  const after = (await tool.run({ query: "weather" }, context)).text;
  assert.match(after, /new_tool/);
  assert.doesNotMatch(after, /old_tool/);
});

Deno.test("search_mcp_tools: the query and unknown names are echoed with C1, bidi and invisible controls escaped", async () => {
  const catalog = await catalogOf([
    { name: "lookup_port", description: "Look up the port assigned to a service." },
  ]);
  const tool = createSearchTool(() => catalog, new Set());
  const hostile = "port\u009b2J\u202eevil\u200b\u0007";
  const found = await tool.run(
    { query: hostile, load: [`mcp__x\u202e\u0085${"y".repeat(300)}`] },
    context,
  );
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(found.text, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u202e]/);
  assert.match(found.text, /MCP tools for "port\\u009b2J\\u202eevil\\u200b\\u0007", best first/);
  assert.match(found.text, /^mcp__x\\u202e\\u0085y{192}…: unknown MCP tool;/m);
  const none = await tool.run({ query: "zzz\u202e" }, context);
  assert.match(none.text, /^No MCP tool matches "zzz\\u202e" \(of 1\)/);
});
