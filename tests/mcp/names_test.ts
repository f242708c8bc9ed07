/**
 * Tool names and annotations against an SDK-built server (fixtures/mcp/names_server.ts): a name
 * too long for model APIs and names that collide once sanitised (`a.b` beside `a_b`, `c.d`
 * beside `c/d`) are offered under hashed names the model calls while the server receives its own
 * names, the same on every run; `hel mcp list` shows both names and each tool's annotations,
 * escaped; and `"trustAnnotations": true` (and only it) makes a readOnlyHint tool a read, which
 * `confirm` runs without a question.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { helOnTerminal } from "../_terminal.ts";
import { sdkFixtureServer } from "../_sdk_server.ts";
import {
  assertNoServerLeft,
  helMcpInProcess,
  helMcpTraced,
  mcpProject,
  receivedCalls,
  systemText,
  toolMessage,
  trustMcp,
} from "../_mcp.ts";

/** The fixture listing long and colliding names and annotated tools, as server n. */
const namesServer = (root: string) => sdkFixtureServer(root, "names_server.ts", "n", "--names");

const LONG = "get_weather_forecast_for_a_city_by_name_with_hourly_detail_and_alerts";

/** The model-facing name the system message lists for the tool described as `description`. */
function listedName(system: string, description: string): string {
  const line = system.split("\n").find((l) => l.startsWith("- mcp__") && l.endsWith(description));
  assert.ok(line, `no tool described as ${description} in:\n${system}`);
  return line.slice(2, line.indexOf(":"));
}

Deno.test("long and colliding names get hashed names: the model calls them, the server receives its own names, the same on the next run", async () => {
  await using project = await mcpProject((root) => ({ n: namesServer(root) }));
  const names: Record<string, string> = {};
  await using model = scriptedModel([
    (request) => {
      const system = systemText(request);
      names.long = listedName(system, ": A tool with a long name.");
      names.dotted = listedName(system, ": Dotted.");
      names.underscored = listedName(system, ": Underscored.");
      names.slashed = listedName(system, ": Slashed c.");
      return { toolCalls: [{ name: "load_mcp_tool", arguments: { names: Object.values(names) } }] };
    },
    () => ({
      toolCalls: Object.entries(names).map(([id, name]) => ({ id, name, arguments: { q: id } })),
    }),
    { text: "done" },
  ]);
  const { result, trace } = await helMcpTraced(project, model);
  // Nothing is excluded any more.
  assert.doesNotMatch(result.stderr, /excluded/);
  assert.match(names.long!, /^mcp__n__get_weather_forecast_for_a_city_by_name_wit_[0-9a-f]{12}$/);
  assert.equal(names.long!.length, 64);
  // "a_b" is written as the model sees it and keeps its name; "a.b" gets the hash.
  assert.equal(names.underscored, "mcp__n__a_b");
  assert.match(names.dotted!, /^mcp__n__a_b_[0-9a-f]{12}$/);
  assert.match(names.slashed!, /^mcp__n__c_d_[0-9a-f]{12}$/);
  assert.match(systemText(model.requests[0]!), /^- mcp__n__c_d_[0-9a-f]{12}: Dotted c\.$/m);
  // The model called the hashed names; the server received its own.
  assert.equal(toolMessage(model, "long"), `called ${LONG} with {"q":"long"}`);
  assert.equal(toolMessage(model, "dotted"), 'called a.b with {"q":"dotted"}');
  assert.equal(toolMessage(model, "underscored"), 'called a_b with {"q":"underscored"}');
  assert.equal(toolMessage(model, "slashed"), 'called c/d with {"q":"slashed"}');
  const calls = await receivedCalls(project.logPath("n"));
  assert.deepEqual(calls.map((call) => call.name).sort(), [LONG, "a.b", "a_b", "c/d"].sort());
  // The run's MCP trace says which tool each hashed name stands for, and why.
  assert.deepEqual(
    trace.filter((e) => e.event === "tool_renamed").map((e) => [e.tool, e.name, e.reason]),
    [
      ["a.b", names.dotted, "another tool would also be mcp__n__a_b"],
      [
        "c.d",
        listedName(systemText(model.requests[0]!), ": Dotted c."),
        "another tool would also be mcp__n__c_d",
      ],
      ["c/d", names.slashed, "another tool would also be mcp__n__c_d"],
      [LONG, names.long, "its name would be 77 characters, over the 64 model APIs accept"],
    ],
  );
  assert.equal(model.remaining(), 0);

  // Another run (a resumed session's, say) offers every tool under the same name.
  await using again = scriptedModel([{ text: "done" }]);
  const second = await helMcpInProcess(project, again);
  assert.equal(second.code, 0, second.stderr);
  const listing = (text: string) => text.split("\n").filter((l) => l.startsWith("- mcp__"));
  assert.deepEqual(
    listing(systemText(again.requests[0]!)),
    listing(systemText(model.requests[0]!)),
  );
  await assertNoServerLeft(project);
});

Deno.test("hel mcp list shows the server's names behind hashed ones and the annotations, escaped; trustAnnotations says what counts", async () => {
  await using project = await mcpProject((root) => ({ n: namesServer(root) }));
  const list = async () => {
    const result = await runHelInProcess(["--mcp-shutdown-wait", "0.3", "mcp", "list"], {
      cwd: project.project,
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.ok(!result.stdout.includes("\u001b"), "a raw escape reached the terminal");
    return result.stdout;
  };
  let out = await list();
  assert.match(out, /^n: connected, 7 tools, call timeout 300 s/m);
  assert.match(
    out,
    /^ {2}- mcp__n__a_b_[0-9a-f]{12}: Dotted\. \(server's name: "a\.b"; hashed: another tool would also be mcp__n__a_b\)$/m,
  );
  assert.match(out, /^ {2}- mcp__n__a_b: Underscored\.$/m);
  assert.match(
    out,
    new RegExp(
      `^ {2}- mcp__n__get_weather_[a-z_]+_[0-9a-f]{12}: A tool with a long name\\. \\(server's ` +
        `name: "${LONG}"; hashed: its name would be 77 characters, over the 64 model APIs ` +
        "accept\\)$",
      "m",
    ),
  );
  assert.match(
    out,
    /^ {2}- mcp__n__lookup: Looks a record up\.\n {6}annotations: title "Look up a record", readOnlyHint, idempotentHint, openWorldHint false \(untrusted: runs as any tool\)$/m,
  );
  assert.match(
    out,
    /^ {2}- mcp__n__erase: Erases a record\.\n {6}annotations: title "\\u001b\[31mErase\\u001b\[0m", readOnlyHint false, destructiveHint$/m,
  );
  assert.doesNotMatch(out, /trustAnnotations/);

  const config = JSON.parse(await Deno.readTextFile(`${project.project}/.hel/mcp.json`));
  config.servers.n.trustAnnotations = true;
  await project.write(".hel/mcp.json", JSON.stringify(config));
  await trustMcp(project);
  out = await list();
  assert.match(
    out,
    /^ {2}annotations: trusted \("trustAnnotations": true\): readOnlyHint tools count as reads$/m,
  );
  assert.match(
    out,
    /^ {6}annotations: title "Look up a record", readOnlyHint, idempotentHint, openWorldHint false \(trusted: a read\)$/m,
  );
  // A tool not marked read-only stays what it was.
  assert.match(out, /^ {6}annotations: title .*Erase.*, readOnlyHint false, destructiveHint$/m);

  // --json says the same: why a name is hashed, the annotations and whether they count.
  const json = await runHelInProcess(["--mcp-shutdown-wait", "0.3", "mcp", "list", "--json"], {
    cwd: project.project,
  });
  assert.equal(json.code, 0, json.stderr);
  const tools = JSON.parse(json.stdout).servers[0].tools;
  const tool = (serverName: string) =>
    tools.find((t: { serverName: string }) => t.serverName === serverName);
  assert.equal(tool("a.b").renamed, "shared");
  assert.equal(tool(LONG).renamed, "long");
  assert.equal(tool("a_b").renamed, undefined);
  assert.deepEqual(tool("lookup").annotations, {
    title: "Look up a record",
    readOnlyHint: true,
    idempotentHint: true,
    openWorldHint: false,
  });
  assert.equal(tool("lookup").read, true);
  assert.deepEqual(tool("erase").annotations, {
    title: "\u001b[31mErase\u001b[0m",
    readOnlyHint: false,
    destructiveHint: true,
  });
  assert.equal(tool("erase").read, false);
  await assertNoServerLeft(project);
});

Deno.test("readOnlyHint makes a read only with trustAnnotations: confirm asks for it without, runs it with", async () => {
  const run = async (trustAnnotations: boolean) => {
    await using project = await mcpProject((root) => ({
      n: { ...namesServer(root), trustAnnotations },
    }));
    // One "no" for the first question; a second question finds no answer.
    await project.write("no.json", "[false]");
    await using model = scriptedModel([
      {
        toolCalls: [{
          name: "load_mcp_tool",
          arguments: { names: ["mcp__n__lookup", "mcp__n__erase"] },
        }],
      },
      { toolCalls: [{ id: "lookup", name: "mcp__n__lookup", arguments: { q: "r1" } }] },
      { toolCalls: [{ id: "erase", name: "mcp__n__erase", arguments: { q: "r1" } }] },
      { text: "done" },
    ]);
    const result = await helMcpInProcess(project, model, ["--approval-input", "no.json"], {
      access: "confirm",
    });
    assert.equal(result.code, 0, result.stderr);
    const calls = (await receivedCalls(project.logPath("n"))).map((call) => call.name);
    await assertNoServerLeft(project);
    return { lookup: toolMessage(model, "lookup"), erase: toolMessage(model, "erase"), calls };
  };
  // Untrusted hints: lookup is asked about like any tool (and declined); erase finds no answer.
  const untrusted = await run(false);
  assert.match(untrusted.lookup, /^error: permission denied: .*the user declined/);
  assert.match(
    untrusted.erase,
    /^error: permission denied: mcp__n__erase \(access=confirm, approval=unavailable\)/,
  );
  assert.deepEqual(untrusted.calls, []);
  // Trusted: lookup runs without a question, so the one "no" answers erase's.
  const trusted = await run(true);
  assert.equal(trusted.lookup, 'called lookup with {"q":"r1"}');
  assert.match(trusted.erase, /^error: permission denied: .*the user declined/);
  assert.deepEqual(trusted.calls, ["lookup"]);
});

Deno.test("the trust review says a server trusts its read-only hints", async () => {
  await using project = await mcpProject(
    (root) => ({ n: { ...namesServer(root), trustAnnotations: true } }),
    { trusted: false },
  );
  const review = helOnTerminal(project, ["trust", "mcp"]);
  await review.waitFor("[y/N]");
  assert.match(
    review.output(),
    /^server "n" from \.hel\/mcp\.json, trusts its read-only hints · sandbox: on\r$/m,
  );
  await review.type("n\n");
  await review.finish();
});
