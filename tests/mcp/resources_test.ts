/**
 * Resources as deferred tools, against the SDK fixture server (fixtures/mcp/lists_server.ts):
 * listed and loaded like a server's tools, allowed read-only, what the model reads of text,
 * binary and large resources and of templates, a resource that changes mid-run named in the
 * next request's note, and `hel mcp list` showing resources and prompts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import { helMcp, mcpProject, readLog, runHel, systemText, toolMessage } from "../_mcp.ts";
import { sdkFixtureServer } from "../_sdk_server.ts";

/** The SDK fixture whose lists change (fixtures/mcp/lists_server.ts), logging as `name`. */
const listsServer = (root: string, name: string, ...flags: string[]) =>
  sdkFixtureServer(root, "lists_server.ts", name, ...flags);

const name = (tool: string) => `mcp__lists__${tool}`;
const resourceTools = ["list_resources", "list_resource_templates", "read_resource"].map(name);
const call = (id: string, tool: string, args: Record<string, unknown> = {}) => ({
  id,
  name: name(tool),
  arguments: args,
});

Deno.test("resources are three deferred tools that read even read-only: text with its URI, binary as a line, a large one spilled, templates, errors that say what to do", async () => {
  await using project = await mcpProject((root) => ({ lists: listsServer(root, "lists") }));
  await using model = scriptedModel([
    { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: resourceTools } }] },
    {
      toolCalls: [
        call("list", "list_resources"),
        call("templates", "list_resource_templates"),
        call("readme", "read_resource", { uri: "lists://doc/readme" }),
        call("blob", "read_resource", { uri: "lists://blob/one" }),
        call("big", "read_resource", { uri: "lists://big" }),
        call("missing", "read_resource", { uri: "lists://doc/nowhere" }),
      ],
    },
    { text: "done" },
  ]);
  const result = await helMcp(project, model, [], { access: "read-only" });
  assert.equal(result.code, 0, result.stderr);
  const system = systemText(model.requests[0]!);
  assert.match(
    system,
    /^- mcp__lists__list_resources: Lists the resources MCP server lists offers/m,
  );
  assert.match(system, /^- mcp__lists__read_resource: Reads one resource of MCP server lists/m);
  assert.match(system, /^- mcp__lists__list_resource_templates: Lists the URI templates/m);
  assert.deepEqual(model.requests[1]!.toolNames.slice(-3), resourceTools);

  assert.equal(
    toolMessage(model, "list"),
    "3 resources of MCP server lists:\n" +
      "- lists://doc/readme — readme (text/plain, 31 B)\n" +
      "- lists://blob/one — one (application/octet-stream)\n" +
      "- lists://big — big (text/plain, 293.0 KiB)",
  );
  assert.equal(
    toolMessage(model, "templates"),
    "1 resource template of MCP server lists:\n" +
      "- lists://doc/{name} — Documents: A document by name",
  );
  assert.equal(
    toolMessage(model, "readme"),
    "[resource: lists://doc/readme, text/plain]\nThe readme of the lists server.",
  );
  assert.equal(
    toolMessage(model, "blob"),
    "[resource: lists://blob/one, application/octet-stream, 9 B of binary data, not shown]",
  );
  const big = toolMessage(model, "big");
  assert.match(big, /^\[resource: lists:\/\/big, text\/plain\]\nxxxx/);
  assert.match(
    big,
    /\[Result too large: \d+ characters omitted here\. The full result is saved at /,
  );
  const saved = big.match(/saved at (\S+?)\.(?: |\])/)![1]!;
  assert.match(await Deno.readTextFile(saved), /x!$/);
  assert.equal(
    toolMessage(model, "missing"),
    "error: MCP server lists answered resources/read with an error: MCP error -32002: Resource " +
      "not found: lists://doc/nowhere. Check the URI with mcp__lists__list_resources or " +
      "mcp__lists__list_resource_templates.",
  );
  const reads = (await readLog(project.logPath("lists"))).filter((entry) =>
    entry.method === "resources/read"
  );
  assert.equal(reads.length, 4, "read-only let every read through");
  assert.equal(model.remaining(), 0);
});

Deno.test("a resource added or removed mid-run is named in the next request's note", async () => {
  await using project = await mcpProject((root) => ({ lists: listsServer(root, "lists") }));
  const change = (id: string, action: string) => ({
    id,
    name: name("change"),
    arguments: { action, name: id },
  });
  await using model = scriptedModel([
    { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: [name("change")] } }] },
    { toolCalls: [change("notes", "add_resource")] },
    { toolCalls: [{ ...change("readme", "remove_resource"), id: "remove" }] },
    { text: "done" },
  ]);
  const result = await helMcp(project, model);
  assert.equal(result.code, 0, result.stderr);
  const last = (index: number) => String(model.requests[index]!.messages.at(-1)?.content);
  assert.match(
    last(2),
    /\]\nNew resources of MCP server lists:\n- lists:\/\/doc\/notes — notes \(text\/plain, 14 B\)$/,
  );
  assert.match(last(3), /\]\nResources MCP server lists removed:\n- lists:\/\/doc\/readme$/);
  assert.equal(model.remaining(), 0);
});

Deno.test("hel mcp list shows a server's resources and its prompts as chat commands, controls escaped", async () => {
  await using project = await mcpProject((root) => ({ lists: listsServer(root, "lists") }));
  const result = await runHel(["mcp", "list"], { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stdout,
    /^ {2}resources: 3 listed; the model reads them with mcp__lists__list_resources, mcp__lists__list_resource_templates, mcp__lists__read_resource$/m,
  );
  assert.match(
    result.stdout,
    /^ {2}prompt \/mcp__lists__greet <name> \[style\]: Greets someone by name$/m,
  );
  assert.match(result.stdout, /^ {2}prompt \/mcp__lists__mixed: A conversation with a resource$/m);
  assert.match(
    result.stdout,
    /^ {2}prompt \/mcp__lists__hostile: Looks harmless \\u001b\[2J\\u001b\]0;pwned\\u0007$/m,
  );
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(result.stdout, /\x1b/);
});

Deno.test("a server outside the sandbox gets no free reads: its resource tools are refused read-only like its other tools", async () => {
  await using project = await mcpProject((root) => ({
    lists: { ...listsServer(root, "lists"), sandbox: false },
  }));
  await using model = scriptedModel([
    { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: resourceTools } }] },
    { toolCalls: [call("readme", "read_resource", { uri: "lists://doc/readme" })] },
    { text: "done" },
  ]);
  const result = await helMcp(project, model, [], { access: "read-only" });
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    toolMessage(model, "readme"),
    /^error: permission denied: mcp__lists__read_resource/,
  );
  const reads = (await readLog(project.logPath("lists"))).filter((entry) =>
    entry.method === "resources/read"
  );
  assert.equal(reads.length, 0, "the server was never asked");
});
