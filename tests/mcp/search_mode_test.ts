/**
 * Search mode (issue 17): when the MCP tool listing would take more than its token budget, the
 * system message names the servers with their tool counts, the model gets `search_mcp_tools`
 * instead of `load_mcp_tool`, and finds, loads and calls the tool it needs. Played on the
 * chapter's port task with the inventory server offering 1,000 tools, by the h10 policy model
 * (search, load what the answer lists, call, edit). Below the budget nothing changes.
 *
 * @module
 */
import assert from "node:assert/strict";
import { h10Policy, PORT_QUERY } from "../../evals/testdata/h10_model.ts";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { INVENTORY_SERVER, modelArgs, receivedMessages, systemText, trustMcp } from "../_mcp.ts";

const CONFIG_INI = "[server]\nservice=api\nhost=127.0.0.1\nport=7000\n";
const LOOKUP = "mcp__inventory__lookup_port";

/** The port task's project; `extra` more tools on the inventory server. */
async function portProject(extra: number) {
  const project = await tempProject({ "config.ini": CONFIG_INI });
  await project.write(".hel/mcp/inventory.py", await Deno.readTextFile(INVENTORY_SERVER));
  const args = [".hel/mcp/inventory.py", ...(extra > 0 ? ["--extra-tools", String(extra)] : [])];
  await project.write(
    ".hel/mcp.json",
    JSON.stringify({ servers: { inventory: { command: "python3", args } } }),
  );
  await trustMcp(project);
  return project;
}

async function playPortTask(extra: number, ...flags: string[]) {
  const project = await portProject(extra);
  const model = scriptedModel(Array.from({ length: 8 }, () => h10Policy));
  const result = await runHelInProcess([
    ...modelArgs(model),
    "--tools",
    "read_file,search_replace",
    "--mcp-shutdown-wait",
    "0.3",
    "--mcp-startup-timeout",
    "60",
    ...flags,
    "Look up the api service's port on the inventory server and put it into config.ini.",
  ], { cwd: project.project });
  return { project, model, result };
}

Deno.test("with 1,000 MCP tools search mode switches on and the port task passes: search, load, call", async () => {
  const { project, model, result } = await playPortTask(998);
  await using _project = project;
  await using _model = model;
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await project.read("config.ini"), CONFIG_INI.replace("7000", "8437"));

  const [first, second, third] = model.requests;
  // The first request: the servers and their counts, not the tools; the search tool, no loader.
  assert.deepEqual(first!.toolNames, ["read_file", "search_replace", "search_mcp_tools"]);
  const system = systemText(first!);
  assert.match(system, /^- inventory: 1000 tools$/m);
  assert.match(system, /search_mcp_tools/);
  assert.doesNotMatch(system, /mcp__inventory__/);
  assert.ok(system.length < 3_000, `the MCP part stays small: ${system.length} characters`);
  // The search's answer lists the lookup with its description and parameters.
  const found = String(second!.messages.at(-1)?.content);
  assert.match(found, new RegExp(`best of 1000 MCP tools for "${PORT_QUERY}"`));
  assert.match(
    found,
    /^- mcp__inventory__lookup_port: Look up the port .* \[parameters: service\]$/m,
  );
  // Loaded through the search tool, offered from the next request, called, answered.
  assert.match(String(third!.messages.at(-1)?.content), /mcp__inventory__lookup_port: loaded/);
  assert.deepEqual(third!.toolNames, [
    "read_file",
    "search_replace",
    "search_mcp_tools",
    LOOKUP,
  ]);
  const calls = (await receivedMessages(`${project.project}/inventory-events.jsonl`))
    .filter((message) => message.method === "tools/call")
    .map((message) => {
      const { name, arguments: args } = message.params as Record<string, unknown>;
      return { name, args };
    });
  assert.deepEqual(calls, [{ name: "lookup_port", args: { service: "api" } }]);
});

Deno.test("below the budget the system message lists every tool as before, with load_mcp_tool", async () => {
  const { project, model, result } = await playPortTask(0);
  await using _project = project;
  await using _model = model;
  assert.equal(result.code, 0, result.stderr);
  const first = model.requests[0]!;
  assert.deepEqual(first.toolNames, ["read_file", "search_replace", "load_mcp_tool"]);
  const system = systemText(first);
  assert.ok(
    system.includes(
      "MCP tools from the MCP servers configured for this run. Their definitions are not in " +
        "your tool list until loaded: call load_mcp_tool with the names you need, and the loaded " +
        "tools become callable from your next request. Loading does not contact the server.\n" +
        "- mcp__inventory__list_services: List the services the inventory knows, one name per " +
        "line.\n" +
        "- mcp__inventory__lookup_port: Look up the port assigned to a service in the inventory.",
    ),
    system,
  );
  assert.doesNotMatch(system, /search_mcp_tools/);
  assert.equal(await project.read("config.ini"), CONFIG_INI.replace("7000", "8437"));
});

Deno.test("the budget and the mode are settable: --mcp-catalogue-budget, --mcp-catalogue list", async () => {
  // Two tools over a budget of 10 tokens: search.
  const small = await playPortTask(0, "--mcp-catalogue-budget", "10");
  await using _small = small.project;
  await using _smallModel = small.model;
  assert.equal(small.result.code, 0, small.result.stderr);
  assert.match(systemText(small.model.requests[0]!), /^- inventory: 2 tools$/m);
  assert.ok(small.model.requests[0]!.toolNames.includes("search_mcp_tools"));
  // 1,000 tools, listed because the person asked for it.
  const listed = await playPortTask(998, "--mcp-catalogue", "list");
  await using _listed = listed.project;
  await using _listedModel = listed.model;
  assert.equal(listed.result.code, 0, listed.result.stderr);
  assert.match(
    systemText(listed.model.requests[0]!),
    /^- mcp__inventory__billing_list_invoices: /m,
  );
  assert.ok(listed.model.requests[0]!.toolNames.includes("load_mcp_tool"));
});
