import assert from "node:assert/strict";
import { buildCatalog } from "./catalog.ts";
import { ToolIndex, words } from "./tool_index.ts";

Deno.test("tool names are split at snake case, kebab case, dots and camelCase", () => {
  assert.deepEqual(words("git_log"), ["git", "log"]);
  assert.deepEqual(words("API-post-search"), ["API", "post", "search"]);
  assert.deepEqual(words("files.readMultiple"), ["files", "read", "Multiple"]);
  assert.deepEqual(words("getHTTPResponse"), ["get", "HTTP", "Response"]);
});

const OBJECT = { type: "object", properties: { path: { type: "string" } } };

async function catalog(tools: { name: string; description: string }[]) {
  return (await buildCatalog([{
    name: "t",
    tools: tools.map((tool) => ({ ...tool, inputSchema: OBJECT })),
  }], new Set())).entries;
}

Deno.test("the index follows the catalog: added, changed and removed tools", async () => {
  const index = new ToolIndex();
  const first = await catalog([
    { name: "make_dir", description: "Create a directory." },
    { name: "show_log", description: "Show the commit history." },
  ]);
  index.sync(first);
  assert.equal(index.search("commits", 5)[0]?.entry.fullName, "mcp__t__show_log");
  const second = await catalog([
    { name: "make_dir", description: "Create a directory." },
    { name: "show_log", description: "Print the weather." },
    { name: "history", description: "List the recent commits of the repository." },
  ]);
  index.sync(second);
  assert.equal(index.size, 3);
  assert.deepEqual(index.search("commits", 5).map((m) => m.entry.fullName), ["mcp__t__history"]);
  assert.equal(index.search("weather", 5)[0]?.entry.fullName, "mcp__t__show_log");
  // The entries returned are the catalog's current ones, changed or not.
  assert.equal(index.search("weather", 5)[0]?.entry, second.find((e) => e.toolName === "show_log"));
  assert.equal(
    index.search("directory", 5)[0]?.entry,
    second.find((e) => e.toolName === "make_dir"),
  );
  index.sync(await catalog([{ name: "history", description: "List the recent commits." }]));
  assert.deepEqual(index.search("directory", 5), []);
  assert.equal(index.size, 1);
});
