/**
 * The error path of URL-mode elicitation against the real `@modelcontextprotocol/server-everything`
 * from npm: `trigger-url-elicitation` with `errorPath` answers the call with "URL elicitation
 * required" (-32042) naming a page to open. On a terminal hel shows the page as it shows any URL
 * question; "done" sends the call again (the server then proceeds, asking its own URL question),
 * a cancel fails the call with a text for the model that leaves the server's address out.
 * Without a terminal the call fails the same way. `hel mcp call` behaves as a run does.
 *
 * Needs `npx` and the npm registry (or a warm npm cache). Set HEL_SKIP_NPM_TESTS=1 to skip.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { FAST, helMcp, modelArgs, systemText, toolMessage } from "../_mcp.ts";
import { everythingProject, ignoreNpm as ignore, SLOW_START } from "../_npx.ts";
import { helOnTerminal, type TerminalRun } from "../_terminal.ts";
import { shownTimes } from "../_elicit.ts";

const TOOL = "mcp__everything__trigger-url-elicitation";
/** The arguments that make the server answer -32042 first (it then lets the retry through). */
const ERROR_PATH = { url: "https://example.com/auth", errorPath: true };
/** The page server-everything's -32042 asks the person to open. */
const PREREQUISITE = "https://modelcontextprotocol.io";
const CHOICE = "[d]one / [n]o, decline / [c]ancel: ";
/** What the model reads when the page was not done. */
const NOT_DONE =
  /^error: MCP server everything needs the user to open a page in a web browser before trigger-url-elicitation can run \(it answered "URL elicitation required", -32042\), and hel could not get that done: /;

/** The model loads the tool, calls it once per id with the error-path arguments, then ends. */
function modelCalling(...ids: string[]) {
  return scriptedModel([
    (request: { messages: unknown[] }) => {
      assert.match(systemText(request as never), new RegExp(`^- ${TOOL}: `, "m"));
      return { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: [TOOL] } }] };
    },
    ...ids.map((id) => ({ toolCalls: [{ id, name: TOOL, arguments: ERROR_PATH }] })),
    { text: "done" },
  ]);
}

/** Answers the `times`-th question on the terminal with `letter`. */
async function answer(hel: TerminalRun, times: number, letter: string) {
  await shownTimes(hel, CHOICE, times);
  await hel.type(`${letter}\r`);
}

/** The prerequisite page as the terminal shows it: who asks, its message, host and address. */
function assertPageShown(output: string) {
  assert.match(
    output,
    /MCP server everything asks you to open a web page \(hel does not open it[^\n]*\n {2}Open this link to satisfy the prerequisite, then retry the request\./,
  );
  assert.match(output, /^ {2}host: modelcontextprotocol\.io\r?$/m);
  assert.match(output, /^ {2}address: https:\/\/modelcontextprotocol\.io\r?$/m);
}

Deno.test({
  name:
    "on a terminal, a call answered -32042 shows the page to open; done sends the call again, cancel fails it with no address for the model",
  ignore,
  async fn() {
    await using project = await everythingProject();
    await using model = modelCalling("done", "cancel");
    const hel = helOnTerminal(project, [...modelArgs(model), ...FAST, ...SLOW_START, "-i", "go"]);
    await answer(hel, 1, "d"); // the prerequisite page: done, so the call is sent again
    await answer(hel, 2, "d"); // the retried call's own URL question (the server's request path)
    await answer(hel, 3, "c"); // the second call's prerequisite page: cancelled
    const { code, output } = await hel.finish();
    assert.equal(code, 0, output);
    assertPageShown(output);
    assert.match(output, /^ {2}address: https:\/\/example\.com\/auth\r?$/m);
    // The retry went through: the server proceeded and got hel's answer to its own question.
    const done = toolMessage(model, "done");
    assert.match(done, /User completed the URL elicitation flow/);
    assert.match(done, /"action": "accept"/);
    const cancelled = toolMessage(model, "cancel");
    assert.match(cancelled, NOT_DONE);
    assert.match(cancelled, /the user cancelled it\. The server did not carry out the call\./);
    assert.ok(!cancelled.includes(PREREQUISITE), "the server's address never reached the model");
    assert.equal(model.remaining(), 0);
  },
});

Deno.test({
  name:
    "without a terminal, a call answered -32042 fails with a text that says the user must open a page, and the person is told",
  ignore,
  async fn() {
    await using project = await everythingProject();
    await using model = modelCalling("call");
    const result = await helMcp(project, model, SLOW_START);
    assert.equal(result.code, 0, result.stderr);
    const text = toolMessage(model, "call");
    assert.match(text, NOT_DONE);
    assert.match(text, /there is no terminal to ask the user on\./);
    assert.ok(!text.includes(PREREQUISITE), "the server's address never reached the model");
    assert.match(
      result.stderr,
      /warning: MCP server everything asked you a question and hel declined it: there is no terminal to ask on/,
    );
  },
});

Deno.test({
  name:
    "hel mcp call: on a terminal done sends the call again and prints its result; without one it exits 1 with the error",
  ignore,
  async fn() {
    await using project = await everythingProject();
    const args = [
      "mcp",
      "call",
      "everything",
      "trigger-url-elicitation",
      JSON.stringify(ERROR_PATH),
    ];
    const hel = helOnTerminal(project, [...FAST, ...SLOW_START, ...args]);
    await answer(hel, 1, "d");
    await answer(hel, 2, "d");
    const { code, output } = await hel.finish();
    assert.equal(code, 0, output);
    assertPageShown(output);
    assert.match(output, /User completed the URL elicitation flow/);

    const piped = await runHelInProcess([...FAST, ...SLOW_START, ...args], {
      cwd: project.project,
    });
    assert.equal(piped.code, 1, piped.stderr);
    assert.equal(piped.stdout, "");
    assert.match(piped.stderr, /error: MCP server everything needs the user to open a page/);
    assert.match(piped.stderr, /there is no terminal to ask the user on/);
    assert.ok(!piped.stderr.includes("-32042: This request"), "not the raw MCP error");
  },
});
