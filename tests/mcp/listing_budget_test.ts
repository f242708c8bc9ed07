/**
 * What hel keeps of a server that lists too many tools (plugins/mcp/listing_budget.ts), against
 * an SDK server of our own (fixtures/mcp/many_tools_server.ts): at start-up and when a list
 * change makes the listing grow, hel keeps the first 25,000 tools, asks for no further page,
 * warns once naming the server, what was kept and what was left out, and the kept tools work;
 * `hel mcp list` says the same. A long description reaches the model cut, with a marker.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import {
  helMcpInProcess,
  helMcpTraced,
  mcpProject,
  offered,
  receivedMethods,
  runHel,
  toolMessage,
} from "../_mcp.ts";
import { sdkFixtureServer } from "../_sdk_server.ts";

const big = (root: string, ...flags: string[]) =>
  sdkFixtureServer(root, "many_tools_server.ts", "big", ...flags);
/** Listing 30,000 tools can take a while on a busy machine. */
const SLOW_START = ["--mcp-startup-timeout", "60"];
const load = (names: string[]) => ({
  toolCalls: [{ id: "load", name: "search_mcp_tools", arguments: { load: names } }],
});

Deno.test("a server listing 30,000 tools: hel keeps 25,000, stops asking for pages, warns once, and the kept tools work", async () => {
  await using project = await mcpProject((root) => ({
    big: big(root, "--tools", "30000", "--page", "7000"),
  }));
  await using model = scriptedModel([
    load(["mcp__big__t24998", "mcp__big__t25000"]),
    { toolCalls: [{ id: "call", name: "mcp__big__t24998", arguments: { q: "x" } }] },
    { text: "done" },
  ]);
  const { result, trace } = await helMcpTraced(project, model, SLOW_START);
  // grow and t0 … t24998 are the first 25,000; four pages of 7,000 were read, not the fifth.
  const warnings = result.stderr.split("\n").filter((line) => line.includes("hel keeps"));
  assert.deepEqual(warnings, [
    "hel: warning: MCP server big listed more tools than hel keeps of one server (25,000 " +
    "tools): hel kept the first 25,000 (" + warnings[0]!.match(/\(([\d,]+) characters\)/)![1] +
    " characters) and left out 3,000 more of the page it was reading and its further pages, " +
    "which hel did not ask for. Use a server that lists fewer tools, or one per area you need",
  ]);
  const listed = (await receivedMethods(project.logPath("big")))
    .filter((method) => method === "tools/list");
  assert.equal(listed.length, 4);
  assert.match(toolMessage(model, "load"), /mcp__big__t24998: loaded/);
  assert.match(toolMessage(model, "load"), /mcp__big__t25000: unknown MCP tool/);
  assert.equal(toolMessage(model, "call"), "called t24998");
  const cut = trace.filter((event) => event.event === "tools_cut");
  assert.deepEqual(cut.map(({ kept, leftOut, morePages }) => ({ kept, leftOut, morePages })), [
    { kept: 25_000, leftOut: 3_000, morePages: true },
  ]);
});

Deno.test("hel mcp list shows the cut listing's warning under its server", async () => {
  await using project = await mcpProject((root) => ({
    big: big(root, "--tools", "30000", "--page", "7000"),
  }));
  const result = await runHel([...SLOW_START, "mcp", "list"], { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^big: connected, 25000 tools/m);
  assert.match(
    result.stdout,
    /^ {2}warning: MCP server big listed more tools than hel keeps of one server \(25,000 tools\): hel kept the first 25,000 \([\d,]+ characters\) and left out 3,000 more/m,
  );
});

Deno.test("a list change that grows the listing past the budget is cut the same way and warned once", async () => {
  await using project = await mcpProject((root) => ({
    big: big(root, "--tools", "10", "--grow-to", "26000"),
  }));
  await using model = scriptedModel([
    {
      toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: ["mcp__big__grow"] } }],
    },
    { toolCalls: [{ id: "grow", name: "mcp__big__grow", arguments: {} }] },
    { toolCalls: [{ id: "again", name: "mcp__big__grow", arguments: {} }] },
    { text: "done" },
  ]);
  const { result, trace } = await helMcpTraced(project, model, SLOW_START);
  const warnings = result.stderr.split("\n").filter((line) => line.includes("hel keeps"));
  assert.equal(warnings.length, 1, result.stderr);
  // 5,000 a page: after five pages 25,000 are kept, and the sixth is not asked for.
  assert.match(
    warnings[0]!,
    /kept the first 25,000 \([\d,]+ characters\) and left out its further pages/,
  );
  const cuts = trace.filter((event) => event.event === "tools_cut");
  assert.ok(cuts.length >= 1);
  assert.deepEqual(cuts.map(({ kept, leftOut }) => ({ kept, leftOut }))[0], {
    kept: 25_000,
    leftOut: 0,
  });
});

Deno.test("a description over 8,000 characters reaches the model cut, with a marker saying so; a short one whole", async () => {
  await using project = await mcpProject((root) => ({
    big: big(root, "--tools", "2", "--verbose"),
  }));
  await using model = scriptedModel([
    {
      toolCalls: [{
        id: "load",
        name: "load_mcp_tool",
        arguments: { names: ["mcp__big__verbose", "mcp__big__t0"] },
      }],
    },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  const request = model.requests[1]!;
  assert.equal(offered(request, "mcp__big__t0").function.description, "Tool number 0.");
  const description: string = offered(request, "mcp__big__verbose").function.description;
  assert.ok(description.startsWith("Start of a long description. word word"));
  assert.doesNotMatch(description, /END OF DESCRIPTION/);
  const [head, marker] = description.split("\n");
  assert.equal([...head!].length, 8_001); // the first 8,000 and "…"
  assert.ok(head!.endsWith("…"));
  assert.equal(
    marker,
    "[hel: this description is 19,998 characters; only its first 8,000 are shown]",
  );
});
