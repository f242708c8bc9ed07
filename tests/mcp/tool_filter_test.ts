/**
 * A server's `tools` allowlist in `.hel/mcp.json`, end to end: only the tools it matches are
 * listed and callable, the rest are left out without a warning each (but counted by
 * `hel mcp list` and in the run's MCP trace), and an entry matching nothing is warned about
 * once. hel runs as a subprocess against the scripted model and the fixture server.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import {
  assertNoServerLeft,
  fixtureServer,
  helMcpTraced,
  mcpProject,
  receivedCalls,
  systemText,
  toolMessage,
} from "../_mcp.ts";

// The fixture lists 13 tools; "a.b" is its own name for mcp__t__a_b, and "slwo" is a typo of
// "slow" that matches none of them.
const filtered = (root: string) => ({
  t: { ...fixtureServer(root, "t"), timeout: 10, tools: ["echo", "fa*", "a.b", "slwo"] },
});

Deno.test("only allowlisted tools are offered and callable; the rest stay quiet", async () => {
  await using project = await mcpProject(filtered);
  await using model = scriptedModel([
    {
      toolCalls: [{
        id: "load",
        name: "load_mcp_tool",
        arguments: { names: ["mcp__t__echo", "mcp__t__slow"] },
      }],
    },
    { toolCalls: [{ id: "hidden", name: "mcp__t__slow", arguments: {} }] },
    { toolCalls: [{ id: "echo", name: "mcp__t__echo", arguments: { text: "kept" } }] },
    { text: "done" },
  ]);
  const { result, trace } = await helMcpTraced(project, model);

  // The listing holds exactly the matched tools: "echo", "fa*" (= "fail") and "a.b".
  const listed = systemText(model.requests[0]!).split("\n").filter((l) => l.startsWith("- mcp__"));
  assert.deepEqual(listed, [
    "- mcp__t__a_b: A dotted name.",
    "- mcp__t__echo: Echo text back.",
    "- mcp__t__fail: Always fails with isError.",
  ]);
  // A left-out tool cannot be loaded, and a call to it is the ordinary unknown-tool error.
  assert.equal(
    toolMessage(model, "load"),
    "mcp__t__echo: loaded; callable from the next request\n" +
      "mcp__t__slow: unknown MCP tool; use a name from the MCP tool list in the system message",
  );
  assert.match(toolMessage(model, "hidden"), /^error: unknown tool: mcp__t__slow; /);
  assert.equal(toolMessage(model, "echo"), "kept");
  // Only the allowed call reached the server.
  assert.deepEqual(await receivedCalls(project.logPath("t")), [
    { name: "echo", arguments: { text: "kept" } },
  ]);

  // One warning, for the entry that matched nothing; none for the 10 tools left out (not even
  // for "noschema", which would otherwise be excluded with a warning).
  const warnings = result.stderr.split("\n").filter((line) => /MCP|mcp\.json/.test(line));
  assert.deepEqual(warnings.length, 1, result.stderr);
  assert.match(
    warnings[0]!,
    /\.hel\/mcp\.json: servers\."t"\.tools entry "slwo" matches none of the 13 tools server t lists \(closest listed: "slow"\); fix or remove it$/,
  );
  assert.doesNotMatch(result.stderr, /excluded|noschema|x{70}/);

  // The run's MCP trace records what the allowlist did.
  assert.deepEqual(trace.filter((e) => e.event === "tools_filter"), [
    { event: "tools_filter", server: "t", left_out: 10, unmatched: ["slwo"] },
  ]);
  assert.equal(trace.filter((e) => e.event === "tool_excluded").length, 0);
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("hel mcp list shows the allowlist, how many tools it left out, and an entry matching nothing", async () => {
  await using project = await mcpProject(filtered);
  const result = await runHelInProcess(["--mcp-shutdown-wait", "0.3", "mcp", "list"], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  const out = result.stdout;
  assert.match(
    out,
    /^t: connected, 3 tools, 10 left out by "tools", call timeout 10 s \(up to 100 s while it reports progress\)$/m,
  );
  assert.match(out, /^ {2}tools: "echo", "fa\*", "a\.b", "slwo"$/m);
  assert.match(out, /^ {2}- mcp__t__echo: Echo text back\.$/m);
  assert.match(out, /^ {2}- mcp__t__fail: Always fails with isError\.$/m);
  assert.match(out, /^ {2}- mcp__t__a_b: A dotted name\. \(server's name: "a\.b"\)$/m);
  assert.doesNotMatch(out, /mcp__t__slow|excluded/);
  assert.match(
    out,
    /^ {2}warning: \.hel\/mcp\.json: servers\."t"\.tools entry "slwo" matches none of the 13 tools/m,
  );
  await assertNoServerLeft(project);
});
