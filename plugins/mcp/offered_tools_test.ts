import assert from "node:assert/strict";
import type { Tool } from "../../core/mod.ts";
import type { ListedTool } from "./catalog.ts";
import { OfferedTools } from "./offered_tools.ts";
import { resourceTools } from "./resource_tools.ts";

const tool = (name: string, description = `${name} it`): ListedTool => ({
  name,
  description,
  inputSchema: { type: "object" },
});
const makeTool = (entry: { fullName: string }) => ({ name: entry.fullName }) as unknown as Tool;
const offered = (eager = false) => new OfferedTools({ reserved: new Set(), eager, makeTool });
const server = (tools: ListedTool[]) => ({ name: "s", tools, resources: [] });

Deno.test("a changed listing: new tools, gone ones unloaded, changed definitions, each told once", async () => {
  const tools = offered();
  await tools.update([server([tool("keep"), tool("go"), tool("alter")])]);
  tools.told();
  tools.loaded.add("mcp__s__go").add("mcp__s__alter");
  await tools.update([server([tool("keep"), tool("alter", "altered"), tool("new")])]);
  assert.deepEqual([...tools.loaded], ["mcp__s__alter"]);
  assert.equal(tools.tool("mcp__s__go"), undefined);
  const changes = tools.changes()!;
  assert.deepEqual(changes.added.map((entry) => entry.fullName), ["mcp__s__new"]);
  assert.deepEqual(changes.removed, [{ fullName: "mcp__s__go", wasLoaded: true }]);
  assert.deepEqual(
    changes.changed.map(({ entry, loaded }) => [entry.fullName, entry.description, loaded]),
    [["mcp__s__alter", "altered", true]],
  );
  assert.deepEqual(tools.loadedDefinitions()[0]?.function.name, "mcp__s__alter");
  assert.equal(tools.changes(), undefined, "told once");
});

Deno.test("changes that cancel out say nothing; a loaded tool that went and came back must be loaded again", async () => {
  const tools = offered();
  await tools.update([server([tool("a"), tool("b")])]);
  tools.told();
  tools.loaded.add("mcp__s__b");
  await tools.update([server([tool("a")])]);
  await tools.update([server([tool("a"), tool("b")])]);
  const changes = tools.changes()!;
  assert.deepEqual(changes.added, []);
  assert.deepEqual(changes.removed, []);
  assert.deepEqual(changes.changed.map(({ entry, loaded }) => [entry.fullName, loaded]), [
    ["mcp__s__b", false],
  ]);
  await tools.update([server([tool("a", "other"), tool("b")])]);
  await tools.update([server([tool("a"), tool("b")])]);
  assert.equal(tools.changes(), undefined);
});

Deno.test("--mcp-eager loads new tools at once; hel's resource tools yield to a server's own of that name", async () => {
  const tools = offered(true);
  const handle = {
    name: "s",
    client: {} as never,
    connected: () => true,
  };
  const resources = resourceTools(handle, 1_000);
  await tools.update([{ name: "s", tools: [tool("read_resource")], resources }]);
  assert.deepEqual(tools.catalog.entries.map((entry) => entry.fullName), [
    "mcp__s__list_resource_templates",
    "mcp__s__list_resources",
    "mcp__s__read_resource",
  ]);
  assert.equal(tools.tool("mcp__s__read_resource")?.toolClass, undefined, "the server's own");
  assert.equal(tools.tool("mcp__s__list_resources")?.toolClass, "read");
  assert.match(tools.catalog.excluded[0]!.reason, /hel's resource tool mcp__s__read_resource/);
  tools.told();
  await tools.update([{ name: "s", tools: [tool("read_resource"), tool("new")], resources }]);
  assert.ok(tools.loaded.has("mcp__s__new"));
  assert.equal(tools.changes()?.eager, true);
});
