/**
 * The MCP chapter's task, offline: `config.ini` holds `port=7000`; the port assigned to the
 * `api` service is known only to the `inventory` MCP server under `.hel/mcp/`. With MCP, hel
 * goes load → call → edit and the file ends as `port=8437`; without the MCP plugin the same
 * task cannot succeed and the server never starts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../../kit/mod.ts";
import type { RecordedRequest, ScriptedModel } from "../../fixtures/scripted_model.ts";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import {
  INVENTORY_SERVER,
  modelArgs,
  processesWithMarker,
  readLog,
  receivedMessages,
  systemText,
  toolMessage,
} from "../_mcp.ts";

const CONFIG_INI = "[server]\nservice=api\nhost=127.0.0.1\nport=7000\n";
const EXPECTED_INI = "[server]\nservice=api\nhost=127.0.0.1\nport=8437\n";
const INSTRUCTION = "Look up the port assigned to the api service on the inventory server and " +
  "set it as the port in config.ini. Change nothing else.";

/** A project laid out like the chapter's task, its MCP config pinned by hash. */
async function chapterProject() {
  const project = await tempProject({ "config.ini": CONFIG_INI });
  const marker = crypto.randomUUID();
  await project.write(".hel/mcp/inventory.py", await Deno.readTextFile(INVENTORY_SERVER));
  await project.write(
    ".hel/mcp.json",
    JSON.stringify({
      servers: {
        inventory: {
          command: "python3",
          args: [".hel/mcp/inventory.py"],
          env: { HEL_TEST_MARKER: marker },
        },
      },
    }) + "\n",
  );
  // Pinned the way scripts and evals do it.
  const hash = await sha256Hex(await Deno.readFile(`${project.project}/.hel/mcp.json`));
  const pinned = await runHelInProcess(["trust", "mcp", "--sha256", hash], {
    cwd: project.project,
  });
  assert.equal(pinned.code, 0, pinned.stderr);
  return Object.assign(project, { marker });
}

/**
 * A model that plays the task: pick the tool from the system message's list, load it, call it,
 * read the file, and edit it with whatever port the MCP result carried.
 */
function chapterScript() {
  return [
    (request: RecordedRequest) => {
      const listed = systemText(request).match(/^- (mcp__inventory__lookup_port):/m)?.[1];
      return listed
        ? { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: [listed] } }] }
        : { text: "There is no tool to ask the inventory server; config.ini is unchanged." };
    },
    {
      toolCalls: [{
        id: "lookup",
        name: "mcp__inventory__lookup_port",
        arguments: { service: "api" },
      }],
    },
    { toolCalls: [{ id: "read", name: "read_file", arguments: { path: "config.ini" } }] },
    (request: RecordedRequest) => {
      const port = toolAnswerIn(request, "lookup").match(/api: (\d+)/)?.[1] ?? "unknown";
      return {
        toolCalls: [{
          id: "edit",
          name: "search_replace",
          arguments: { path: "config.ini", search: "port=7000", replace: `port=${port}` },
        }],
      };
    },
    { text: "config.ini now uses port 8437 for the api service." },
  ];
}

function toolAnswerIn(request: RecordedRequest, callId: string): string {
  const found = request.messages.find((m) => m.role === "tool" && m.tool_call_id === callId);
  return String(found?.content ?? "");
}

function args(model: ScriptedModel, ...extra: string[]): string[] {
  return [
    ...modelArgs(model, "auto"),
    "--tools",
    "read_file,search_replace",
    "--mcp-shutdown-wait",
    "0.3",
    ...extra,
    "-i",
    INSTRUCTION,
  ];
}

Deno.test("the chapter task's load → call → edit turns port=7000 into port=8437", async () => {
  await using project = await chapterProject();
  await using model = scriptedModel(chapterScript());
  const result = await runHelInProcess(args(model), { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await project.read("config.ini"), EXPECTED_INI);
  assert.equal(model.remaining(), 0);

  // The first request offers only the built-ins and load_mcp_tool; after loading, the
  // definition of the loaded tool follows.
  assert.deepEqual(model.requests[0]!.toolNames, ["read_file", "search_replace", "load_mcp_tool"]);
  assert.match(systemText(model.requests[0]!), /^- mcp__inventory__lookup_port: /m);
  assert.match(systemText(model.requests[0]!), /^- mcp__inventory__list_services: /m);
  assert.deepEqual(model.requests[1]!.toolNames, [
    "read_file",
    "search_replace",
    "load_mcp_tool",
    "mcp__inventory__lookup_port",
  ]);
  assert.equal(toolMessage(model, "lookup"), "api: 8437");
  assert.doesNotMatch(toolMessage(model, "edit"), /^error/);

  // The server saw initialize, tools/list, then the one tools/call.
  const events = await receivedMessages(`${project.project}/inventory-events.jsonl`);
  assert.deepEqual(events.map((m) => m.method), [
    "initialize",
    "notifications/initialized",
    "tools/list",
    "tools/call",
  ]);
  const { _meta, ...params } = events[3]!.params as Record<string, unknown>;
  assert.deepEqual(params, { name: "lookup_port", arguments: { service: "api" } });
  // Every call carries a progress token, so progress reports can keep a long call alive.
  assert.equal(typeof (_meta as { progressToken?: unknown })?.progressToken, "number");
  assert.deepEqual(processesWithMarker(project.marker, true), []);
});

Deno.test("without the MCP plugin the chapter task cannot succeed and no server starts", async () => {
  await using project = await chapterProject();
  // A model without MCP tries what it can; none of it can reach the port.
  await using model = scriptedModel([
    {
      toolCalls: [{
        id: "guess",
        name: "load_mcp_tool",
        arguments: { names: ["mcp__inventory__lookup_port"] },
      }],
    },
    {
      toolCalls: [{ id: "peek", name: "read_file", arguments: { path: ".hel/mcp/inventory.py" } }],
    },
    { text: "I could not find the port." },
  ]);
  const result = await runHelInProcess(args(model, "--without", "mcp"), { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await project.read("config.ini"), CONFIG_INI);
  assert.deepEqual(model.requests[0]!.toolNames, ["read_file", "search_replace"]);
  assert.doesNotMatch(systemText(model.requests[0]!), /MCP|inventory/);
  assert.match(toolMessage(model, "peek"), /^error: /); // .hel is not readable by the model
  assert.match(toolMessage(model, "guess"), /^error: unknown tool: load_mcp_tool/);
  assert.equal(model.remaining(), 0);
  assert.ok(model.requests.every((request) => !JSON.stringify(request.messages).includes("8437")));
  // Nothing started the server: it never logged a message.
  assert.deepEqual(await readLog(`${project.project}/inventory-events.jsonl`), []);
  assert.deepEqual(processesWithMarker(project.marker, true), []);
});
