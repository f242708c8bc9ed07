/**
 * The -32042 error path (URL elicitation required) against the fixture server, for what
 * server-everything does not do: a page the server closes itself with
 * `notifications/elicitation/complete`, a server that answers -32042 again after the retry
 * (sent once, never looped), too many pages or a page hel refuses (no one asked, the person
 * told), server text escaped on the terminal, and the chat's box for the page.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel, toolMessage } from "../_helpers.ts";
import { FAST, mcpProject, modelArgs } from "../_mcp.ts";
import { helOnTerminal } from "../_terminal.ts";
import { startChat } from "../_chat_terminal.ts";
import { elicitServer, shownTimes } from "../_elicit.ts";

const TOOL = "mcp__asker__need_pages";
const CHOICE = "[d]one / [n]o, decline / [c]ancel: ";
const START = ["--mcp-startup-timeout", "60"];

const page = (id: string, url: string, message = `Open ${id}`) => ({
  mode: "url",
  elicitationId: id,
  url,
  message,
});

async function askerProject() {
  return await mcpProject((root) => ({
    asker: elicitServer(`${root}/project/mcp-logs/asker.jsonl`),
  }));
}

Deno.test("on a terminal: a page the server completes closes by itself and the call is sent again; a second -32042 is not retried; too many or bad pages are refused unasked", async () => {
  await using project = await askerProject();
  const calls: [string, Record<string, unknown>][] = [
    ["completed", {
      elicitations: [page("p1", "https://sso.example.com/login", "Sign in\x1b[2J now")],
      completeAfterMs: 1500,
    }],
    ["again", { elicitations: [page("p2", "https://pay.example.com/")], always: true }],
    ["many", { elicitations: ["a", "b", "c", "d"].map((id) => page(id, "https://x.test/")) }],
    ["bad", { elicitations: [page("p3", "javascript:alert(1)")] }],
    ["malformed", { elicitations: "https://x.test/" }],
  ];
  await using model = scriptedModel([
    { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: [TOOL] } }] },
    ...calls.map(([id, args]) => ({ toolCalls: [{ id, name: TOOL, arguments: args }] })),
    { text: "done" },
  ]);
  const hel = helOnTerminal(project, [...modelArgs(model), ...FAST, ...START, "-i", "go"]);
  // The first page is never answered: the server's completion notification closes it.
  await shownTimes(hel, CHOICE, 2);
  await hel.type("d\r"); // the second call's page: done, but the server asks again
  const { code, output } = await hel.finish();
  assert.equal(code, 0, output);
  assert.equal(output.split(CHOICE).length - 1, 2, "only two pages were ever asked");
  assert.match(output, /^ {2}host: sso\.example\.com\r?$/m);
  assert.match(output, /Sign in\\u001b\[2J now/);
  assert.ok(!output.includes("\x1b[2J"), "the server's escape sequence never reached the terminal");

  assert.deepEqual(JSON.parse(toolMessage(model, "completed")), { calls: 2 });
  const not = "error: MCP server asker needs the user to open a page in a web browser before " +
    'need_pages can run (it answered "URL elicitation required", -32042), and hel could not ' +
    "get that done: ";
  const again = toolMessage(model, "again");
  assert.ok(again.startsWith(not), again);
  assert.match(again, /the server asked again; hel sends a call again only once/);
  assert.match(toolMessage(model, "many"), /it asked for 4 pages at once; hel shows at most 3/);
  assert.match(toolMessage(model, "bad"), /its address starts with javascript:/);
  assert.match(toolMessage(model, "malformed"), /has no pages to open \(data\.elicitations\)/);
  for (const [id] of calls.slice(1)) {
    assert.ok(!toolMessage(model, id).includes("example.com"), `${id}: no address to the model`);
  }
  assert.match(output, /MCP server asker asked you a question hel refused: it asked for 4 pages/);
});

Deno.test("the chat shows a -32042 page in its URL box; done sends the call again", async () => {
  await using project = await askerProject();
  await using model = scriptedModel([
    { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: [TOOL] } }] },
    {
      toolCalls: [{
        id: "open",
        name: TOOL,
        arguments: { elicitations: [page("c1", "https://login.example.com@evil.test/")] },
      }],
    },
    { text: "opened" },
  ]);
  const chat = await startChat(project, [...modelArgs(model), ...FAST, ...START]);
  await chat.send("sign me in");
  await chat.waitFor("host: evil.test");
  const box = (await chat.screen()).join("\n");
  assert.match(box, /MCP server asker asks you/);
  assert.match(box, /Open c1/);
  assert.match(box, /warning: the address has a user name before @/);
  assert.match(box, /1\. Done \(d\)/);
  await chat.press("d");
  await chat.waitFor("opened");
  assert.deepEqual(JSON.parse(toolMessage(model, "open")), { calls: 2 });
  await chat.press("\x04");
  const { code, output } = await chat.finish();
  assert.equal(code, 0, output);
});

Deno.test("Ctrl-C at a -32042 page on the terminal closes it and interrupts the call: it is not sent again", async () => {
  await using project = await askerProject();
  await using model = scriptedModel([
    { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: [TOOL] } }] },
    {
      toolCalls: [{
        id: "stop",
        name: TOOL,
        arguments: { elicitations: [page("s1", "https://sso.example.com/")] },
      }],
    },
  ]);
  const hel = helOnTerminal(project, [...modelArgs(model), ...FAST, ...START, "-i", "go"]);
  await hel.waitFor(CHOICE);
  await hel.type("\x03");
  const { code, output } = await hel.finish();
  assert.equal(code, 130, output);
  assert.equal(model.requests.length, 2, "the model was not asked again: the turn stopped");
  const log = await Deno.readTextFile(`${project.root}/project/mcp-logs/asker.jsonl`);
  assert.deepEqual(log.trim().split("\n").map((line) => JSON.parse(line)), [{ needPages: 1 }]);
});
