import assert from "node:assert/strict";
import { buildCatalog } from "./catalog.ts";
import { changeNote } from "./change_note.ts";

const [entry] = (await buildCatalog([{
  name: "t",
  tools: [{ name: "fresh", description: "A new tool.", inputSchema: { type: "object" } }],
}], new Set())).entries;

Deno.test("the change note names the loading tool of the mode: load_mcp_tool, or search's load", () => {
  const changes = {
    added: [entry!],
    removed: [],
    changed: [{ entry: entry!, loaded: false }],
    eager: false,
  };
  const listed = changeNote(changes, [])!;
  assert.match(listed, /^New MCP tools \(call load_mcp_tool with a name before calling it\):$/m);
  assert.match(listed, /\(not loaded: call load_mcp_tool to use it\)$/m);
  const searched = changeNote(changes, [], "search_mcp_tools")!;
  assert.match(
    searched,
    /^New MCP tools \(call search_mcp_tools with its name in "load" before calling it\):$/m,
  );
  assert.match(
    searched,
    /\(not loaded: call search_mcp_tools with its name in "load" to use it\)$/m,
  );
});
