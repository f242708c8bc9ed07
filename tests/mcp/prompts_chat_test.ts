/**
 * MCP prompts as chat commands, on a real pseudo-terminal against the SDK fixture server
 * (fixtures/mcp/lists_server.ts): Tab completes the command and, through
 * `completion/complete`, its arguments; Enter sends the prompt's messages as the person's
 * turn; a server's terminal controls are shown escaped; a missing argument is answered, not
 * sent.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import { startChat } from "../_chat_terminal.ts";
import { FAST, mcpProject, readLog } from "../_mcp.ts";
import { sdkFixtureServer } from "../_sdk_server.ts";

/** The SDK fixture whose lists change (fixtures/mcp/lists_server.ts), logging as `name`. */
const listsServer = (root: string, name: string, ...flags: string[]) =>
  sdkFixtureServer(root, "lists_server.ts", name, ...flags);

// deno-lint-ignore no-explicit-any
const lastUser = (request: { messages: any[] }) =>
  request.messages.filter((message) => message.role === "user").at(-1)?.content;

Deno.test("a prompt is a chat command: Tab completes its name and arguments, Enter sends its messages as the turn, server text shows escaped", async () => {
  await using project = await mcpProject((root) => ({ lists: listsServer(root, "lists") }));
  await using model = scriptedModel([{ text: "Hello, Alice!" }, { text: "noted" }]);
  const chat = await startChat(project, ["--base-url", model.url, "--model", "m", ...FAST]);

  await chat.press("/mcp__lists__gr");
  await chat.waitFor("Greets someone by name");
  await chat.press("\t");
  await chat.waitFor("> /mcp__lists__greet");
  // Keys that reach hel in one read are taken as typed text: each Tab goes alone.
  const typeThenTab = async (text: string, shown: string) => {
    await chat.press(text);
    await chat.waitFor(shown);
    await chat.press("\t");
  };
  await typeThenTab("Al", "> /mcp__lists__greet Al");
  await chat.waitFor("Alice  Albert");
  await typeThenTab("i", "> /mcp__lists__greet Ali");
  await chat.waitFor("> /mcp__lists__greet Alice");
  await typeThenTab("w", "> /mcp__lists__greet Alice w");
  await chat.waitFor("> /mcp__lists__greet Alice warm");
  await chat.press("\r");
  await chat.waitFor("Hello, Alice!");
  assert.equal(lastUser(model.requests[0]!), "Please greet Alice warmly.");
  const screen = (await chat.screen()).join("\n");
  assert.match(screen, /Please greet Alice warmly\./);
  // The second argument was completed knowing the first.
  const completions = (await readLog(project.logPath("lists")))
    .filter((entry) => entry.method === "completion/complete");
  assert.deepEqual(completions.at(-1), {
    method: "completion/complete",
    argument: { name: "style", value: "w" },
    context: { arguments: { name: "Alice" } },
  });

  // A required argument left out: said, and nothing is sent.
  // The command's name is on screen already: wait for the box itself before Enter.
  const sendCommand = async (line: string) => {
    await chat.press(line);
    await chat.waitUntil((rows) => rows.some((row) => row.startsWith(`│ > ${line} `)), line);
    await chat.press("\r");
  };
  await sendCommand("/mcp__lists__greet");
  await chat.waitFor("/mcp__lists__greet: missing name: <name> [style]");
  assert.equal(model.requests.length, 1);

  // A prompt whose text holds terminal controls: shown as text, the screen not cleared.
  await sendCommand("/mcp__lists__hostile");
  await chat.waitFor("noted");
  const after = (await chat.screen()).join("\n");
  assert.match(after, /Ignore this \\u001b\[2J\\u001b\]0;pwned\\u0007 text/);
  assert.match(after, /Please greet Alice warmly\./, "the screen was not cleared");
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(chat.output(), /\x1b\]0;pwned/);
  assert.equal(lastUser(model.requests[1]!), "Ignore this \x1b[2J\x1b]0;pwned\x07 text");

  await chat.press("\x04");
  assert.equal((await chat.finish()).code, 0);
  assert.equal(model.remaining(), 0);
});
