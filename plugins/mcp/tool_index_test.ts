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

Deno.test("warm builds the index ahead in slices; a search after it finds the same", async () => {
  const tools = Array.from({ length: 450 }, (_, i) => ({
    name: `tool_${i}`,
    description: i === 321 ? "Show the commit history." : `Does thing number ${i}.`,
  }));
  const entries = await catalog(tools);
  const warmed = new ToolIndex();
  const warming = warmed.warm(entries);
  // Slices run between other work: nothing is indexed before the first one.
  assert.equal(warmed.size, 0);
  await warming;
  assert.equal(warmed.size, 450);
  const fresh = new ToolIndex();
  fresh.sync(entries);
  warmed.sync(entries);
  const names = (index: ToolIndex) => index.search("commits", 5).map((m) => m.entry.fullName);
  assert.deepEqual(names(warmed), ["mcp__t__tool_321"]);
  assert.deepEqual(names(warmed), names(fresh));
  // The catalog changed while warming: the first search brings the index in step.
  const changed = await catalog([{ name: "history", description: "List the recent commits." }]);
  const stale = new ToolIndex();
  await stale.warm(entries);
  stale.sync(changed);
  assert.equal(stale.size, 1);
  assert.deepEqual(names(stale), ["mcp__t__history"]);
});

Deno.test("a search while warming finishes the index itself", async () => {
  const entries = await catalog(Array.from({ length: 1_000 }, (_, i) => ({
    name: `tool_${i}`,
    description: i === 999 ? "Show the commit history." : `Does thing number ${i}.`,
  })));
  const index = new ToolIndex();
  const warming = index.warm(entries);
  await new Promise((resolve) => setTimeout(resolve, 0));
  index.sync(entries);
  assert.equal(index.size, 1_000);
  assert.equal(index.search("commits", 1)[0]?.entry.fullName, "mcp__t__tool_999");
  await warming;
  assert.equal(index.size, 1_000);
});
