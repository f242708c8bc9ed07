import assert from "node:assert/strict";
import type { Tool } from "../../core/mod.ts";
import { McpRun } from "./mcp_run.ts";

/** A server that declares resources and fails to list them; `tools/list` is answered. */
function failingResources() {
  const client = {
    getServerCapabilities: () => ({ tools: {}, resources: { listChanged: true } }),
    request: ({ method }: { method: string }) =>
      method === "tools/list"
        ? Promise.resolve({ tools: [] })
        : Promise.reject(new Error("the index is being rebuilt")),
  };
  return { name: "docs", client: client as never, connected: () => true };
}

Deno.test("a failed resources/list warns without claiming the resource tools are gone", async () => {
  const warnings: string[] = [];
  const run = await McpRun.start([{
    handle: failingResources(),
    tools: [],
    callTimeoutMs: 1_000,
    sandboxed: true,
  }], {
    reserved: new Set(),
    eager: false,
    listMs: 1_000,
    makeTool: (entry) => ({ name: entry.fullName }) as unknown as Tool,
    trace: () => {},
    warn: (text) => warnings.push(text),
    excluded: () => {},
  });
  run.scheduler.close();
  const names = run.tools.catalog.entries.map((entry) => entry.fullName);
  assert.ok(names.includes("mcp__docs__read_resource"), "its resources can still be read");
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /^MCP server docs: listing its resources failed \(.*rebuilt\)/);
  assert.doesNotMatch(warnings[0]!, /offers none/);
  assert.match(warnings[0]!, /mcp__docs__read_resource still reads them by URI/);
});
