/** The slash commands as typed: which line is a command, completion, help, and the unknown. */
import assert from "node:assert/strict";
import { NEVER, startTestRun } from "../../agent/run_testing.ts";
import type { Plugin } from "../../core/plugin.ts";
import { fakeChat } from "./commands/testing.ts";
import { initPrompt } from "./commands/init.ts";
import {
  matchCommands,
  parseCommandLine,
  runSlashCommand,
  SLASH_COMMANDS,
} from "./slash_commands.ts";

const names = (found: { name: string }[]) => found.map((command) => command.name);

Deno.test("a typed prefix completes to the commands it starts, with or without its slash", () => {
  assert.deepEqual(names(matchCommands("/mo")), ["model"]);
  assert.deepEqual(names(matchCommands("c")), ["clear", "compact"]);
  assert.deepEqual(names(matchCommands("/P")), ["permissions"]);
  assert.equal(matchCommands("/").length, SLASH_COMMANDS.length);
  assert.deepEqual(matchCommands("/model deep"), []);
  assert.deepEqual(matchCommands("/nothing"), []);
});

Deno.test("a line whose first word is /word is a command; a path or plain text is a message", () => {
  assert.deepEqual(parseCommandLine("  /model  deepseek-chat "), {
    name: "model",
    argument: "deepseek-chat",
  });
  assert.deepEqual(parseCommandLine("/Help"), { name: "help", argument: "" });
  assert.equal(parseCommandLine("/usr/bin holds what?"), undefined);
  assert.equal(parseCommandLine("what is /help?"), undefined);
});

Deno.test("an unknown command is answered and never sent to the model", async () => {
  await using t = await startTestRun();
  const chat = fakeChat(t.run);
  assert.equal(await runSlashCommand("/word", chat.context), true);
  assert.equal(await runSlashCommand("/", chat.context), true);
  assert.equal(await runSlashCommand("/\u001b[2Jx", chat.context), false);
  assert.deepEqual(chat.printed, [
    "unknown command /word — /help lists them",
    "unknown command / — /help lists them",
  ]);
  assert.equal(await runSlashCommand("/usr/bin holds what?", chat.context), false);
  assert.deepEqual(chat.sent, []);
  assert.equal(t.models.get("m")?.requests.length ?? 0, 0);
});

Deno.test("a command given an argument it does not take says so and does nothing", async () => {
  await using t = await startTestRun();
  const chat = fakeChat(t.run);
  const id = t.run.session.id;
  await runSlashCommand("/clear everything", chat.context);
  assert.deepEqual(chat.printed, ["/clear takes no argument — /help lists the commands"]);
  assert.equal(t.run.session.id, id);
});

Deno.test("/help lists every command with its summary, and the chat's keys", async () => {
  await using t = await startTestRun();
  const chat = fakeChat(t.run);
  await runSlashCommand("/help", chat.context);
  const screen = chat.screen();
  const lines = screen.split("\n");
  for (const { name, summary } of SLASH_COMMANDS) {
    const shown = lines.some((line) =>
      line.startsWith(`  /${name}`) && line.endsWith(`  ${summary}`)
    );
    assert.ok(shown, `/${name} is not listed with its summary:\n${screen}`);
  }
  assert.match(screen, /^ {2}\/model \[id\] +show the model/m);
  assert.match(screen, /^Keys:\n {2}Enter +send the message$/m);
  assert.match(screen, /^ {2}Esc +interrupt hel/m);

  const plain = fakeChat(t.run, { keys: [["Ctrl-D", "leave"]] });
  await runSlashCommand("/help", plain.context);
  assert.match(plain.screen(), /Keys:\n {2}Ctrl-D {2}leave$/);
  assert.doesNotMatch(plain.screen(), /Esc/);
});

Deno.test("/exit leaves the chat", async () => {
  await using t = await startTestRun();
  const chat = fakeChat(t.run);
  await runSlashCommand("/exit", chat.context);
  assert.equal(chat.exited, true);
});

Deno.test("/init sends the model a prompt to write the project's context file, as a typed turn", async () => {
  await using t = await startTestRun();
  const chat = fakeChat(t.run);
  await runSlashCommand("/init", chat.context);
  assert.deepEqual(chat.sent, [initPrompt("HEL.md")]);
  assert.match(chat.sent[0]!, /^Write a starter HEL\.md for this project/);
  assert.match(chat.sent[0]!, /build.*test/s);
  assert.doesNotMatch(chat.sent[0]!, /\{\{file\}\}/);
  assert.match(chat.screen(), /asking the model to write HEL\.md/);

  await using other = await startTestRun({ settings: { contextFile: ["AGENTS.md"] } });
  const second = fakeChat(other.run);
  await runSlashCommand("/init", second.context);
  assert.match(second.sent[0]!, /^Write a starter AGENTS\.md/);
});

Deno.test("a command that fails is reported and the chat goes on", async () => {
  await using t = await startTestRun({ turns: { m: [{ text: "still answering" }] } });
  const chat = fakeChat(t.run);
  await runSlashCommand("/resume not-an-id", chat.context);
  assert.match(chat.screen(), /^\/resume: invalid session id "not-an-id"/);
  const outcome = await t.run.turn("hello", NEVER);
  assert.equal(outcome.finalText, "still answering");
});

Deno.test("a plugin's command (an MCP prompt) sends the turn it makes; its failure and its texts are shown escaped", async () => {
  const plugin: Plugin = {
    name: "prompts",
    description: "prompts",
    hooks: ["chatCommands"],
    setup: () => ({
      chatCommands: () => [{
        name: "mcp__s__Greet",
        summary: "greets \u001b[2J someone",
        argument: "<who>",
        run: (argument) =>
          Promise.resolve(
            argument === ""
              ? { ok: false as const, error: "missing who \u001b[31m" }
              : { ok: true as const, text: `Please greet ${argument}.` },
          ),
      }],
    }),
  };
  await using t = await startTestRun({ plugins: () => [plugin] });
  const chat = fakeChat(t.run);
  assert.equal(await runSlashCommand("/mcp__s__greet Bob", chat.context), true);
  assert.deepEqual(chat.sent, ["Please greet Bob."]);
  assert.equal(chat.requests, 1, "asked under the spinner, Esc interrupts");
  await runSlashCommand("/mcp__s__Greet", chat.context);
  assert.deepEqual(chat.printed, ["missing who \\u001b[31m"]);
  await runSlashCommand("/help", chat.context);
  assert.match(chat.screen(), /^ {2}\/mcp__s__Greet <who> +greets \\u001b\[2J someone$/m);
});

Deno.test("of two plugin commands that differ only in case, the one typed exactly runs", async () => {
  const command = (name: string) => ({
    name,
    summary: name,
    run: () => Promise.resolve({ ok: true as const, text: `from ${name}` }),
  });
  const plugin: Plugin = {
    name: "prompts",
    description: "prompts",
    hooks: ["chatCommands"],
    setup: () => ({ chatCommands: () => [command("mcp__s__greet"), command("mcp__s__Greet")] }),
  };
  await using t = await startTestRun({ plugins: () => [plugin] });
  const chat = fakeChat(t.run);
  await runSlashCommand("/mcp__s__Greet", chat.context);
  await runSlashCommand("/mcp__s__greet", chat.context);
  await runSlashCommand("/MCP__S__GREET", chat.context);
  assert.deepEqual(chat.sent, ["from mcp__s__Greet", "from mcp__s__greet", "from mcp__s__greet"]);
});
