/**
 * What the model receives for each built-in tool and for load_mcp_tool — name, description and
 * JSON Schema — compared with tool_definitions.snapshot.json beside this file, so any change
 * to them shows up as a diff. After a deliberate change, rewrite the file with
 * `UPDATE_SNAPSHOTS=1 deno test -A tests/tool_definitions_test.ts` and review the diff.
 */
import assert from "node:assert/strict";
import type { Tool } from "../core/mod.ts";
import type { Sandbox } from "../kit/mod.ts";
import { bashTool } from "../plugins/tools/shell/bash.ts";
import { CursorStore } from "../plugins/tools/files/read_cursors.ts";
import { readFileTool } from "../plugins/tools/files/read_file.ts";
import { writeFileTool } from "../plugins/tools/files/write_file.ts";
import { searchReplaceTool } from "../plugins/tools/files/search_replace.ts";
import { globTool } from "../plugins/tools/search/glob.ts";
import { grepTool } from "../plugins/tools/search/grep.ts";
import { buildCatalog } from "../plugins/mcp/catalog.ts";
import { createLoadTool } from "../plugins/mcp/load_tool.ts";

const SNAPSHOT = new URL("./tool_definitions.snapshot.json", import.meta.url);

async function tools(): Promise<Tool[]> {
  // Building a tool touches nothing: the stand-ins are never called.
  const workspace = { project: "/project", spillDir: "/project/.hel/sessions/s/spill" };
  const sandbox = {} as Sandbox;
  const search = { workspace, sandbox, path: "", timeoutSeconds: 600 };
  const catalog = await buildCatalog([], new Set());
  return [
    // The default run: sandboxed, with network, .git read-only, ten minutes per command.
    bashTool({
      sandbox,
      project: "/project",
      timeoutSeconds: 600,
      sandboxed: true,
      network: true,
      gitReadOnly: true,
    }),
    readFileTool({ workspace, cursors: new CursorStore() }),
    writeFileTool(workspace),
    searchReplaceTool(workspace),
    globTool(search),
    grepTool(search),
    createLoadTool(catalog, new Set()),
  ];
}

Deno.test("the tool definitions the model receives match the snapshot", async () => {
  const definitions = (await tools()).map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
  }));
  const text = `${JSON.stringify(definitions, null, 2)}\n`;
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") await Deno.writeTextFile(SNAPSHOT, text);
  const stored = await Deno.readTextFile(SNAPSHOT).catch(() => "(no snapshot yet)");
  assert.equal(
    text,
    stored,
    "the definitions changed; if that was meant, run UPDATE_SNAPSHOTS=1 deno test -A " +
      "tests/tool_definitions_test.ts and review the diff",
  );
});
