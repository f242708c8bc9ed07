import assert from "node:assert/strict";
import { buildCatalog } from "./catalog.ts";

Deno.test("a tool that runs only as a task is excluded with the reason; optional and forbidden are kept", async () => {
  const tool = (name: string, execution?: unknown) => ({
    name,
    inputSchema: { type: "object" },
    ...(execution === undefined ? {} : { execution }),
  });
  const catalog = await buildCatalog([{
    name: "s",
    tools: [
      tool("task", { taskSupport: "required" }),
      tool("maybe", { taskSupport: "optional" }),
      tool("never", { taskSupport: "forbidden" }),
      tool("odd", "required"),
      tool("plain"),
    ],
  }], new Set());
  assert.deepEqual(catalog.entries.map((entry) => entry.toolName), [
    "maybe",
    "never",
    "odd",
    "plain",
  ]);
  assert.deepEqual(catalog.excluded, [{
    server: "s",
    toolName: "task",
    reason: 'it runs only as an MCP task (execution.taskSupport "required"), which hel does ' +
      'not support (to stop this report, list the tools you want in the server\'s "tools")',
  }]);
});
