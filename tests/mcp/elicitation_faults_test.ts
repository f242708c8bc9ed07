/**
 * Elicitation against a fixture SDK server (fixtures/mcp/elicit_server.ts) that asks what
 * server-everything never does: forms too large or impossible to answer (refused, the server
 * told why, the person warned), addresses that are no web page, a question after its call
 * ended (declined), more questions at once than hel keeps waiting, a slow answer under a short
 * call timeout (the timeout is held while the person answers), and a URL question the server
 * completes itself.
 *
 * @module
 */
import assert from "node:assert/strict";
import { pause, scriptedModel, toolMessage } from "../_helpers.ts";
import { FAST, helMcp, mcpProject, modelArgs } from "../_mcp.ts";
import { answerTo, elicitServer, shownTimes } from "../_elicit.ts";
import type { ScriptTurn } from "../../fixtures/scripted_model.ts";
import { helOnTerminal } from "../_terminal.ts";

/** Deno may take a while to start the fixture on a busy machine. */
const STARTUP = ["--mcp-startup-timeout", "60"];

/** The model loads the fixture's tools, makes `calls` one request each, then ends. */
function script(calls: [string, string, Record<string, unknown>][]): ScriptTurn[] {
  const names = [...new Set(calls.map(([, tool]) => `mcp__asker__${tool}`))];
  return [
    { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names } }] },
    ...calls.map(([id, tool, args]) => ({
      toolCalls: [{ id, name: `mcp__asker__${tool}`, arguments: args }],
    })),
    { text: "done" },
  ];
}

function answerOf(model: Parameters<typeof toolMessage>[0], id: string): unknown {
  return JSON.parse(toolMessage(model, id));
}

Deno.test("forms no one could answer and addresses that are no web page are refused, the server told why and the person warned", async () => {
  await using project = await mcpProject((root) => ({
    asker: elicitServer(`${root}/project/mcp-logs/asker.jsonl`),
  }));
  await using model = scriptedModel(script([
    ["huge", "ask_fields", { count: 10_000 }],
    ["ghost", "ask", {
      schema: { type: "object", properties: { a: { type: "string" } }, required: ["ghost"] },
    }],
    ["range", "ask", {
      schema: { type: "object", properties: { n: { type: "integer", minimum: 5, maximum: 1 } } },
    }],
    ["nested", "ask", {
      schema: { type: "object", properties: { o: { type: "object", properties: {} } } },
    }],
    ["script", "ask_url", { url: "javascript:alert(1)" }],
  ]));
  const result = await helMcp(project, model, STARTUP);
  assert.equal(result.code, 0, result.stderr);
  const refused = (id: string) => (answerOf(model, id) as { error: string }).error;
  assert.equal(
    refused("huge"),
    "MCP error -32602: hel refused the question: its form has 10000 fields; hel asks at most 50",
  );
  assert.match(refused("ghost"), /its form requires "ghost", which is not one of its fields/);
  assert.match(refused("range"), /its field "n" has a minimum \(5\) above its maximum \(1\)/);
  assert.match(refused("nested"), /^MCP error -32602: .*Invalid elicitation request/);
  assert.match(refused("script"), /its address starts with javascript:, not https: or http:/);
  assert.match(
    result.stderr,
    /warning: MCP server asker asked you a question hel refused: its form has 10000 fields/,
  );
  assert.equal(model.remaining(), 0);
});

Deno.test("on a terminal: a slow answer outlives the call's 1-second timeout, a third question at once is refused, a URL question the server completes closes itself, one after its call is declined unasked", async () => {
  await using project = await mcpProject((root) => ({
    asker: elicitServer(`${root}/project/mcp-logs/asker.jsonl`, 1),
  }));
  const log = `${project.root}/project/mcp-logs/asker.jsonl`;
  const turns = script([
    ["slow", "ask", {
      schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    }],
    ["many", "ask_many", { count: 3 }],
    ["url", "ask_url", { url: "https://xn--80ak6aa92e.com/login", completeAfterMs: 1_500 }],
    ["later", "ask_later", {}],
  ]);
  // The model thinks until the server's late question was answered: no call is in flight.
  const last = turns.length - 1;
  const answer = turns[last]!;
  turns[last] = async () => {
    await answerTo(log, "Out of the blue");
    return answer;
  };
  await using model = scriptedModel(turns);
  const hel = helOnTerminal(project, [...modelArgs(model), ...FAST, ...STARTUP, "-i", "go"]);
  await hel.waitFor("1/1 name, required");
  await pause(2_500); // the person takes longer than the call's timeout
  await hel.type("Grace\r");
  await hel.waitFor("Send it?");
  await hel.type("y\r");
  await hel.waitFor("Question 1");
  await hel.type("one\r");
  await hel.waitFor("Your answer for MCP server asker:\r\n  name: one");
  await hel.type("y\r");
  await hel.waitFor("Question 2");
  await hel.type("two\r");
  await hel.waitFor("Your answer for MCP server asker:\r\n  name: two");
  await hel.type("y\r");
  await hel.waitFor("host: xn--80ak6aa92e.com");
  await hel.waitFor("[tool] mcp__asker__ask_url"); // closed by the server, no key pressed
  await hel.waitFor("done");
  const { code, output } = await hel.finish();
  assert.equal(code, 0, output);
  assert.deepEqual(answerOf(model, "slow"), { action: "accept", content: { name: "Grace" } });
  assert.deepEqual(answerOf(model, "many"), [
    { action: "accept", content: { name: "one" } },
    { action: "accept", content: { name: "two" } },
    {
      error: "MCP error -32602: hel refused the question: it asked again while 2 of its " +
        "questions were waiting",
    },
  ]);
  assert.match(output, /warning: the host is an internationalised name \(xn--\)/);
  assert.deepEqual(answerOf(model, "url"), { action: "accept" });
  // Asked after its call ended: nobody is waiting for it, so it is declined without asking.
  assert.deepEqual(await answerTo(log, "Out of the blue"), { action: "decline" });
  assert.doesNotMatch(output, /Out of the blue/);
  assert.equal(model.remaining(), 0);
});

Deno.test("in the plain line chat a form is asked between prompts: a default that breaks its own rule is not offered, and the answer is edited before it is sent", async () => {
  await using project = await mcpProject((root) => ({
    asker: elicitServer(`${root}/project/mcp-logs/asker.jsonl`),
  }));
  const schema = {
    type: "object",
    properties: {
      copies: { type: "integer", title: "Copies", minimum: 1, maximum: 9, default: 50 },
      color: { type: "boolean", title: "In colour", default: true },
      size: { type: "string", title: "Paper", enum: ["A4", "A3"], default: "Letter" },
    },
    required: ["copies"],
  };
  await using model = scriptedModel(
    script([["print", "ask", { message: "Print\u202e settings", schema }]]),
  );
  const hel = helOnTerminal(project, [...modelArgs(model), ...STARTUP]);
  await hel.type("print it\n");
  await hel.waitFor("1/3 Copies, required (a whole number, 1 to 9)");
  await hel.type("3\r");
  await hel.waitFor("2/3 In colour\r\n  y or n");
  await hel.waitFor("[yes] > ");
  await hel.type("\r");
  await hel.waitFor("3/3 Paper");
  await hel.type("\r"); // "Letter" is no choice: there was nothing to keep
  await hel.waitFor("Paper: (empty)");
  await hel.type("e\r");
  await hel.waitFor("[3] > ");
  await hel.type("4\r");
  await shownTimes(hel, "[yes] > ", 2);
  await hel.type("n\r");
  await shownTimes(hel, "3/3 Paper", 2);
  await hel.type("A3\r");
  await hel.waitFor("Paper: A3");
  await hel.type("y\r");
  await hel.waitFor("done");
  await hel.type("/exit\n");
  const { code, output } = await hel.finish();
  assert.equal(code, 0, output);
  assert.match(output, /Print\\u202e settings/);
  assert.deepEqual(answerOf(model, "print"), {
    action: "accept",
    content: { copies: 4, color: false, size: "A3" },
  });
});

Deno.test("Ctrl-C at a question on the terminal cancels it and the call it was asked for", async () => {
  await using project = await mcpProject((root) => ({
    asker: elicitServer(`${root}/project/mcp-logs/asker.jsonl`),
  }));
  const schema = { type: "object", properties: { name: { type: "string" } } };
  await using model = scriptedModel(script([["stop", "ask", { message: "Stop me", schema }]]));
  const hel = helOnTerminal(project, [...modelArgs(model), ...FAST, ...STARTUP, "-i", "go"]);
  await hel.waitFor("1/1 name");
  await hel.type("\x03");
  const { code, output } = await hel.finish();
  assert.equal(code, 130, output);
  assert.deepEqual(
    await answerTo(`${project.root}/project/mcp-logs/asker.jsonl`, "Stop me"),
    { action: "cancel" },
  );
  assert.equal(model.requests.length, 2, "the model was not asked again: the turn stopped");
});
