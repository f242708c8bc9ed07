/**
 * List changes against an SDK server of our own (fixtures/mcp/lists_server.ts) that changes
 * its tools while hel runs: what the model's next request holds (the note, the tool list, a
 * changed definition), what a call to a removed tool answers, how many listings a burst of
 * announcements costs, and that a failed listing keeps the tools.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import { helMcp, mcpProject, offered, readLog, systemText, toolMessage } from "../_mcp.ts";
import { sdkFixtureServer } from "../_sdk_server.ts";

/** The SDK fixture whose lists change (fixtures/mcp/lists_server.ts), logging as `name`. */
const listsServer = (root: string, name: string, ...flags: string[]) =>
  sdkFixtureServer(root, "lists_server.ts", name, ...flags);

const name = (tool: string) => `mcp__lists__${tool}`;
// deno-lint-ignore no-explicit-any
const notes = (request: { messages: any[] }) =>
  request.messages.filter((message) =>
    message.role === "user" && String(message.content).startsWith("[hel: MCP servers changed")
  ).map((message) => String(message.content));
// deno-lint-ignore no-explicit-any
const lastNote = (request: { messages: any[] }) => {
  const last = request.messages.at(-1);
  return last?.role === "user" && String(last.content).startsWith("[hel:") ? last.content : "";
};

Deno.test("a server that changes its tools mid-run: the next request says what changed, the loaded set follows, a burst costs one listing, a failed listing keeps the tools", async () => {
  await using project = await mcpProject((root) => ({ lists: listsServer(root, "lists") }));
  const change = (id: string, args: Record<string, unknown>) => ({
    id,
    name: name("change"),
    arguments: args,
  });
  await using model = scriptedModel([
    {
      toolCalls: [{
        id: "load",
        name: "load_mcp_tool",
        arguments: { names: [name("echo"), name("change")] },
      }],
    },
    {
      toolCalls: [
        change("add", { action: "add_tool", name: "fresh", description: "A fresh tool" }),
      ],
    },
    {
      toolCalls: [
        change("remove", { action: "remove_tool", name: "echo" }),
        change("describe", { action: "describe_tool", name: "change", description: "Changes v2" }),
      ],
    },
    { toolCalls: [{ id: "gone", name: name("echo"), arguments: { text: "hi" } }] },
    { toolCalls: [change("burst", { action: "burst", count: 50 })] },
    { toolCalls: [change("break", { action: "break_listing" })] },
    { text: "done" },
  ]);
  const result = await helMcp(project, model);
  assert.equal(result.code, 0, result.stderr);
  const [start, , added, removed, afterGone, afterBurst, afterBreak] = model.requests;

  // At start: the system message lists what the server listed, and no note.
  assert.match(systemText(start!), /^- mcp__lists__echo: Echoes its text$/m);
  assert.doesNotMatch(systemText(start!), /fresh/);
  assert.deepEqual(notes(start!), []);

  // A new tool: named in a note right after the call's result, to be loaded first.
  assert.equal(
    lastNote(added!),
    "[hel: MCP servers changed what they offer since your last request; this note is from " +
      "hel, not from the user]\nNew MCP tools (call load_mcp_tool with a name before calling " +
      "it):\n- mcp__lists__fresh: A fresh tool",
  );
  assert.ok(!added!.toolNames.includes(name("fresh")), "a new tool is not loaded by itself");

  // A removed loaded tool leaves the tool list; a changed loaded one is offered anew.
  const note = lastNote(removed!);
  assert.match(
    note,
    /MCP tools their servers removed \(no longer callable\):\n- mcp__lists__echo \(it was loaded; it is gone from your tool list\)/,
  );
  assert.match(
    note,
    /MCP tools whose definition changed:\n- mcp__lists__change: Changes v2 \(loaded: its new definition is in your tool list\)/,
  );
  assert.ok(!removed!.toolNames.includes(name("echo")));
  assert.equal(offered(removed!, name("change")).function.description, "Changes v2");
  assert.match(
    toolMessage(model, "gone"),
    /^error: mcp__lists__echo was removed by MCP server lists during this run, so it cannot be called/,
  );
  assert.equal(lastNote(afterGone!), "", "no change, no note");

  // Fifty announcements in a row make one listing, and no note (nothing changed).
  assert.equal(lastNote(afterBurst!), "");
  const log = await readLog(project.logPath("lists"));
  const burst = log.findIndex((entry) => entry.action === "burst");
  const next = log.findIndex((entry, index) => index > burst && entry.method === "tools/call");
  assert.deepEqual(
    log.slice(burst + 1, next).map((entry) => entry.method),
    ["tools/list"],
    "fifty announcements, one listing",
  );
  // Start, the added tool, the removal and new description (together), the burst, the break.
  const listings = log.filter((entry) => entry.method === "tools/list").length;
  assert.ok(listings <= 6, `${listings} tools/list requests`);

  // A listing that fails keeps the tools the server had, and says so on stderr.
  assert.ok(afterBreak!.toolNames.includes(name("change")));
  assert.match(
    result.stderr,
    /MCP server lists: listing its tools failed \(MCP server lists answered tools\/list with an error: MCP error -32603: the tool registry is being rebuilt\); hel keeps the tools it had/,
  );
  assert.equal(model.remaining(), 0);
});

Deno.test("a tool a server adds while hel is still starting is offered from the first request", async () => {
  await using project = await mcpProject((root) => ({
    lists: listsServer(root, "lists", "--add-after-list"),
  }));
  await using model = scriptedModel([
    { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: [name("late")] } }] },
    { toolCalls: [{ id: "late", name: name("late"), arguments: { text: "here" } }] },
    { text: "done" },
  ]);
  const result = await helMcp(project, model);
  assert.equal(result.code, 0, result.stderr);
  // Listed in the system message, or (if the listing came later) in the first request's note.
  const first = model.requests[0]!;
  const told = systemText(first) + notes(first).join("\n");
  assert.match(told, /^- mcp__lists__late: Added after the first listing$/m);
  assert.equal(
    toolMessage(model, "load"),
    "mcp__lists__late: loaded; callable from the next request",
  );
  assert.equal(toolMessage(model, "late"), "here");
  assert.equal(model.remaining(), 0);
});
