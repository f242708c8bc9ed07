/**
 * A server's error log message in the Ink chat, through a real pseudo-terminal: a notice line
 * with the server's controls escaped, so its text cannot clear the screen or retitle the window.
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import { startChat } from "../_chat_terminal.ts";
import { mcpProject } from "../_mcp.ts";
import { sdkFixtureServer } from "../_sdk_server.ts";

Deno.test("a server's error log shows in the chat as a notice line, its controls escaped", async () => {
  await using project = await mcpProject((root) => ({
    caps: sdkFixtureServer(root, "caps_server.ts", "caps"),
  }));
  const hostile = "disk full\x1b[2J\x1b]0;pwned\x07 at 99%";
  await using model = scriptedModel([
    {
      toolCalls: [{ name: "load_mcp_tool", arguments: { names: ["mcp__caps__log"] } }],
    },
    {
      toolCalls: [{
        name: "mcp__caps__log",
        arguments: { level: "error", text: hostile, count: 1 },
      }],
    },
    { text: "logged it" },
  ]);
  const chat = await startChat(project, [
    "--base-url",
    model.url,
    "--model",
    "m",
    "--access",
    "auto",
    "--mcp-startup-timeout",
    "30",
  ], { columns: 160 });
  await chat.send("make the server log");
  await chat.waitFor("logged it");
  const lines = (await chat.lines()).join("\n");
  assert.match(
    lines,
    /hel: warning: MCP server caps logged error from fixture: disk full\\u001b\[2J\\u001b\]0;pwned\\u0007 at 99%/,
    lines,
  );
  assert.ok(!chat.output().includes("\x1b]0;pwned"), "the title sequence never reaches the pty");
  await chat.press("\x04");
  assert.equal((await chat.finish()).code, 0);
});
