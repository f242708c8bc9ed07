/**
 * Elicitation against the real `@modelcontextprotocol/server-everything` from npm, which offers
 * its elicitation tools only to a client that declares the capability: the question is asked
 * of the person on a real terminal (one-shot, line by line), answered, declined or cancelled,
 * and what the server got back is what the model then reads in the tool's result; without a
 * terminal hel declines. The Ink chat is in elicitation_chat_test.ts.
 *
 * Needs `npx` and the npm registry (or a warm npm cache). Set HEL_SKIP_NPM_TESTS=1 to skip.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import { FAST, helMcp, modelArgs, systemText, toolMessage } from "../_mcp.ts";
import { everythingProject, ignoreNpm as ignore, SLOW_START } from "../_npx.ts";
import { helOnTerminal } from "../_terminal.ts";
import { shownTimes } from "../_elicit.ts";
import type { ScriptedModel } from "../../fixtures/scripted_model.ts";

const FORM_TOOL = "mcp__everything__trigger-elicitation-request";
const URL_TOOL = "mcp__everything__trigger-url-elicitation";

/** The model loads `tool`, calls it once per entry of `calls` (its id and arguments), then ends. */
function callsOf(tool: string, calls: [string, Record<string, unknown>][]) {
  return [
    (request: { messages: unknown[] }) => {
      assert.match(systemText(request as never), new RegExp(`^- ${tool}: `, "m"));
      return { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: [tool] } }] };
    },
    ...calls.map(([id, args]) => ({ toolCalls: [{ id, name: tool, arguments: args }] })),
    { text: "done" },
  ];
}

/** The JSON after "Raw result:" in the tool's answer: what the server got back from hel. */
function rawResult(model: ScriptedModel, id: string): Record<string, unknown> {
  const text = toolMessage(model, id);
  const raw = text.slice(text.indexOf("Raw result:") + "Raw result:".length);
  return JSON.parse(raw);
}

Deno.test({
  name: "without a terminal, server-everything's question is declined and the person is told",
  ignore,
  async fn() {
    await using project = await everythingProject();
    await using model = scriptedModel(callsOf(FORM_TOOL, [["ask", {}]]));
    const result = await helMcp(project, model, SLOW_START);
    assert.equal(result.code, 0, result.stderr);
    assert.match(toolMessage(model, "ask"), /User declined to provide the requested information/);
    assert.deepEqual(rawResult(model, "ask"), { action: "decline" });
    assert.match(
      result.stderr,
      /warning: MCP server everything asked you a question and hel declined it: there is no terminal to ask on/,
    );
  },
});

Deno.test({
  name:
    "on a terminal, server-everything's form is asked field by field: defaults kept, a bad email asked again, the answer read back and sent",
  ignore,
  async fn() {
    await using project = await everythingProject();
    await using model = scriptedModel(callsOf(FORM_TOOL, [["ask", {}], ["again", {}], [
      "cancel",
      {},
    ]]));
    const hel = helOnTerminal(project, [...modelArgs(model), ...FAST, ...SLOW_START, "-i", "go"]);
    const answer = async (shown: string, line: string) => {
      await hel.waitFor(shown);
      await hel.type(`${line}\r`);
    };
    await answer("1/13 String, required: Your full, legal name", "Ada Lovelace");
    await answer("2/13 Boolean: Agree to the terms and conditions", "y");
    await answer("[It was a dark and stormy night.] > ", "");
    await answer("4/13 String with email format (an email address)", "ada at example");
    await hel.waitFor("must be an email address; try again");
    await hel.type("ada@example.com\r");
    await answer("5/13 String with uri format", ""); // optional, left empty
    await answer("6/13 String with date format (a date, YYYY-MM-DD)", "1815-12-10");
    await answer("7/13 Integer (a whole number, 1 to 100)", "101");
    await hel.waitFor("must be at most 100; try again");
    await hel.type("\r"); // keeps the default, 42
    await answer("8/13 Number in range 1-1000 (0 to 1000)", "2.5");
    await answer("6. Phoebe", "3");
    await answer("5. Bass", "1, 2");
    await answer("3. Wonder Woman", "Green Lantern");
    await answer("3. Trout", "");
    await answer("5. Reptiles", "2");
    await hel.waitFor("Your answer for MCP server everything:");
    await answer("Send it? [y]es / [e]dit / [n]o, decline / [c]ancel: ", "y");
    // The second question is declined at its first field, the third cancelled.
    await shownTimes(hel, "1/13 String, required", 2);
    await hel.type("!decline\r");
    await shownTimes(hel, "1/13 String, required", 3);
    await hel.type("!cancel\r");
    const { code, output } = await hel.finish();
    assert.equal(code, 0, output);
    assert.match(
      output,
      /MCP server everything asks \(your answer goes to the server, not to the model\):\r?\n {2}Please provide inputs/,
    );
    assert.match(output, /String with uri format: \(empty\)/);
    assert.deepEqual(rawResult(model, "ask"), {
      action: "accept",
      content: {
        name: "Ada Lovelace",
        check: true,
        firstLine: "It was a dark and stormy night.",
        email: "ada@example.com",
        birthdate: "1815-12-10",
        integer: 42,
        number: 2.5,
        untitledSingleSelectEnum: "Joey",
        untitledMultipleSelectEnum: ["Guitar", "Piano"],
        titledSingleSelectEnum: "hero-2",
        titledMultipleSelectEnum: ["fish-1"],
        legacyTitledEnum: "pet-2",
      },
    });
    assert.match(toolMessage(model, "ask"), /User provided the requested information/);
    assert.deepEqual(rawResult(model, "again"), { action: "decline" });
    assert.deepEqual(rawResult(model, "cancel"), { action: "cancel" });
    assert.equal(model.remaining(), 0);
  },
});

Deno.test({
  name:
    "a URL question shows the address and its real host on a line of its own, warns of the user name before @, and 'done' accepts",
  ignore,
  async fn() {
    await using project = await everythingProject();
    const url = "https://docs.example.com@evil.test/\u202eeulav";
    await using model = scriptedModel(callsOf(URL_TOOL, [["open", {
      url,
      message: "Sign in\x1b[2J to continue",
    }]]));
    const hel = helOnTerminal(project, [...modelArgs(model), ...FAST, ...SLOW_START, "-i", "go"]);
    await hel.waitFor("[d]one / [n]o, decline / [c]ancel: ");
    await hel.type("d\r");
    const { code, output } = await hel.finish();
    assert.equal(code, 0, output);
    assert.match(
      output,
      /MCP server everything asks you to open a web page \(hel does not open it/,
    );
    assert.match(output, /^ {2}host: evil\.test\r?$/m);
    assert.match(output, /address: https:\/\/docs\.example\.com@evil\.test\/\\u202eeulav/);
    assert.match(output, /warning: the address has a user name before @/);
    assert.match(output, /Sign in\\u001b\[2J to continue/);
    assert.ok(
      !output.includes("\x1b[2J"),
      "the server's escape sequence never reached the terminal",
    );
    assert.match(toolMessage(model, "open"), /User completed the URL elicitation flow/);
    assert.deepEqual(rawResult(model, "open"), { action: "accept" });
  },
});
