/**
 * Input schemas are compiled when a tool is loaded or called, not when it is listed (issue 17:
 * start-up stays flat with thousands of tools). Against an SDK-built server
 * (fixtures/mcp/names_server.ts `--schemas`): a clearly invalid schema is still excluded at
 * start with a warning; a schema that only fails when compiled is listed, refused when the
 * model loads it, and refused at the call in eager mode; the server never sees such a call.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import { sdkFixtureServer } from "../_sdk_server.ts";
import {
  assertNoServerLeft,
  helMcpInProcess,
  mcpProject,
  receivedCalls,
  systemText,
  toolMessage,
} from "../_mcp.ts";

const schemasServer = (root: string) => ({
  n: sdkFixtureServer(root, "names_server.ts", "n", "--schemas"),
});

const UNCHECKABLE = "its inputSchema cannot be checked: can't resolve reference #nowhere from id #";

Deno.test("a schema that fails only when compiled is listed, and refused when loaded", async () => {
  await using project = await mcpProject(schemasServer);
  await using model = scriptedModel([
    {
      toolCalls: [{
        id: "load",
        name: "load_mcp_tool",
        arguments: { names: ["mcp__n__anchored", "mcp__n__plain", "mcp__n__invalid"] },
      }],
    },
    { toolCalls: [{ id: "plain", name: "mcp__n__plain", arguments: { q: "x" } }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  const system = systemText(model.requests[0]!);
  assert.match(system, /^- mcp__n__anchored: Refers to a missing anchor\.$/m);
  assert.doesNotMatch(system, /mcp__n__invalid/);
  assert.match(
    result.stderr,
    /MCP tool "invalid" of server n excluded: its inputSchema cannot be checked: schema is invalid: data\/required must be array/,
  );
  assert.deepEqual(toolMessage(model, "load").split("\n"), [
    `mcp__n__anchored: cannot be loaded: ${UNCHECKABLE}, so hel cannot check calls to it; ` +
    "use another tool, or tell the user",
    "mcp__n__plain: loaded; callable from the next request",
    "mcp__n__invalid: cannot be loaded: its inputSchema cannot be checked: schema is invalid: " +
    "data/required must be array",
  ]);
  const offered = model.requests[1]!.toolNames;
  assert.ok(offered.includes("mcp__n__plain"));
  assert.ok(!offered.includes("mcp__n__anchored"));
  assert.equal(toolMessage(model, "plain"), 'called plain with {"q":"x"}');
  assert.deepEqual((await receivedCalls(project.logPath("n"))).map((call) => call.name), [
    "plain",
  ]);
  await assertNoServerLeft(project);
});

Deno.test("eager mode offers it, and a call to it is refused before any question or server", async () => {
  await using project = await mcpProject(schemasServer);
  await using model = scriptedModel([
    { toolCalls: [{ id: "bad", name: "mcp__n__anchored", arguments: { q: "x" } }] },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model, ["--mcp-eager"]);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(model.requests[0]!.toolNames.includes("mcp__n__anchored"));
  assert.equal(
    toolMessage(model, "bad"),
    `error: mcp__n__anchored cannot be called: ${UNCHECKABLE}, so hel cannot check its ` +
      "arguments. Do not call it again in this run; use another tool, or tell the user",
  );
  assert.deepEqual(await receivedCalls(project.logPath("n")), []);
  await assertNoServerLeft(project);
});
