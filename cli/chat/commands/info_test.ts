/** /status, /model, /tools and /mcp, on a real run with a scripted model and a fake chat. */
import assert from "node:assert/strict";
import { NEVER, probePlugin, startTestRun } from "../../../agent/run_testing.ts";
import type { Plugin } from "../../../core/plugin.ts";
import mcp from "../../../plugins/mcp/mod.ts";
import { runSlashCommand } from "../slash_commands.ts";
import { fakeChat } from "./testing.ts";

/** A plugin whose status line carries an escape sequence, as a hostile server name could. */
const loud: Plugin = {
  name: "loud",
  description: "",
  hooks: ["status"],
  setup: () => ({ status: () => ["\u001b[2Jserver: connected"] }),
};

Deno.test("/status shows the model, server, access, session, context, tokens and each plugin", async () => {
  await using t = await startTestRun({
    turns: { m: [{ text: "hi" }] },
    plugins: () => [probePlugin(), loud],
  });
  await t.run.turn("hello", NEVER);
  const chat = fakeChat(t.run);
  await runSlashCommand("/status", chat.context);
  const screen = chat.screen();
  assert.match(screen, /^ {2}model +m$/m);
  assert.match(screen, /^ {2}base URL +http:\/\/127\.0\.0\.1:9\/v1$/m);
  assert.match(screen, /^ {2}access +auto$/m);
  assert.match(screen, new RegExp(`^ {2}session +${t.run.session.id}$`, "m"));
  assert.match(screen, /^ {2}context +[\d,]+ of 1,000,000 tokens \(0%\)$/m);
  assert.match(screen, /^ {2}tokens +input [\d,]+ · output 10 \(1 model call\)$/m);
  assert.match(screen, /^ {2}probe +0 calls so far$/m);
  assert.match(screen, /^ {2}loud +\\u001b\[2Jserver: connected$/m);
  assert.ok(!screen.includes("\u001b"));
});

Deno.test("/status says in words when the server reported no tokens", async () => {
  await using t = await startTestRun({ settings: { contextWindow: undefined } });
  t.run.usage.inputTokens = undefined;
  t.run.usage.outputTokens = undefined;
  const chat = fakeChat(t.run);
  await runSlashCommand("/status", chat.context);
  assert.match(
    chat.screen(),
    /^ {2}tokens +input not reported by the server · output not reported by the server/m,
  );
  assert.match(chat.screen(), /^ {2}context +~[\d,]+ tokens$/m);
  assert.doesNotMatch(chat.screen(), /\?/);
});

Deno.test("/model shows the model, or switches the next requests to another", async () => {
  await using t = await startTestRun({ turns: { other: [{ text: "from other" }] } });
  const chat = fakeChat(t.run);
  await runSlashCommand("/model", chat.context);
  await runSlashCommand("/model two words", chat.context);
  await runSlashCommand("/model m", chat.context);
  await runSlashCommand("/model other", chat.context);
  assert.deepEqual(chat.printed, [
    "model: m — /model <id> uses another from the next request",
    "a model id is one word, as the server names it: /model <id>",
    "model: m already",
    "model: other from the next request on (was m); http://127.0.0.1:9/v1 must serve it",
  ]);
  assert.equal(t.run.model, "other");
  assert.equal((await t.run.turn("hi", NEVER)).finalText, "from other");
});

Deno.test("/tools lists the tools offered with one line each", async () => {
  await using t = await startTestRun();
  const chat = fakeChat(t.run);
  await runSlashCommand("/tools", chat.context);
  assert.deepEqual(chat.printed, [
    "2 tools offered to the model:\n  whoami  Names the session.\n  big     Answers 60,000 characters.",
  ]);
});

Deno.test("/mcp shows the MCP plugin's servers, or why there are none", async () => {
  await using without = await startTestRun();
  const chat = fakeChat(without.run);
  await runSlashCommand("/mcp", chat.context);
  assert.deepEqual(chat.printed, [
    "no MCP servers: the mcp plugin is not in this run (--without mcp)",
  ]);

  await using t = await startTestRun({ plugins: () => [probePlugin(), mcp()] });
  const second = fakeChat(t.run);
  await runSlashCommand("/mcp", second.context);
  assert.deepEqual(second.printed, [
    `no MCP servers: neither ${t.helHome}/mcp.json nor .hel/mcp.json exists\n` +
    "hel mcp list shows each server's command, sandbox and tools",
  ]);
});
