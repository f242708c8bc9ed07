/** Unit tests of the tool registry: registration, the definitions of a request, lookup. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PluginDriver } from "./plugin_driver.ts";
import { ToolRegistry } from "./tool_registry.ts";
import type { Tool } from "./types.ts";

const tool = (name: string): Tool => ({
  name,
  description: `${name} tool`,
  parameters: { type: "object" },
  toolClass: "read",
  category: "other",
  run: () => Promise.resolve({ ok: true, text: name }),
});

const definition = (name: string) => ({
  type: "function" as const,
  function: { name, description: name, parameters: { type: "object" } },
});

test("definitions(): registered tools in order, then the plugins'; a plugin that throws is skipped with a warning", () => {
  const warnings: string[] = [];
  const plugins = new PluginDriver((text) => warnings.push(text), [
    {
      name: "broken",
      hooks: {
        toolDefinitions: () => {
          throw new Error("not ready");
        },
      },
    },
    { name: "fine", hooks: { toolDefinitions: () => [definition("ext__a")] } },
  ]);
  const registry = new ToolRegistry(plugins);
  registry.register(tool("b"));
  registry.register(tool("a"));
  const definitions = registry.definitions();
  assert.deepEqual(definitions.map((d) => d.function.name), ["b", "a", "ext__a"]);
  assert.deepEqual(definitions[0], {
    type: "function",
    function: { name: "b", description: "b tool", parameters: { type: "object" } },
  });
  assert.deepEqual(warnings, ["plugin broken failed in toolDefinitions: not ready"]);
});

test("register() refuses malformed and duplicate names", () => {
  const registry = new ToolRegistry();
  registry.register(tool("read_file"));
  assert.throws(() => registry.register(tool("read_file")), /"read_file": the name is already/);
  assert.throws(() => registry.register(tool("has space")), /names use \[a-zA-Z0-9_-\], 1-64/);
  assert.throws(() => registry.register(tool("x".repeat(65))), /1-64/);
  assert.deepEqual(registry.names(), ["read_file"]);
});

test("lookup(): a registered tool first, else the first plugin that answers", () => {
  const asked: string[] = [];
  const other = tool("read_file");
  const plugins = new PluginDriver(() => {}, [
    {
      name: "ext",
      hooks: {
        lookupTool: (name) => {
          asked.push(name);
          return name === "ext__x" ? { kind: "tool", tool: tool(name) } : undefined;
        },
      },
    },
    { name: "shadow", hooks: { lookupTool: () => ({ kind: "tool", tool: other }) } },
  ]);
  const registry = new ToolRegistry(plugins);
  const own = tool("read_file");
  registry.register(own);
  assert.deepEqual(registry.lookup("read_file"), { kind: "tool", tool: own });
  assert.equal((registry.lookup("ext__x") as { tool: Tool }).tool.name, "ext__x");
  assert.deepEqual(registry.lookup("nope"), { kind: "tool", tool: other });
  assert.deepEqual(asked, ["ext__x", "nope"], "plugins are not asked for registered names");
});
