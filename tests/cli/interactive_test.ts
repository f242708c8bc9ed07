/**
 * The interactive chat and Ctrl-C, driven through a real pseudo-terminal (`script` from
 * util-linux) so hel sees a terminal exactly as a person's shell gives it one.
 */
import assert from "node:assert/strict";
import { eventually, pause, runHel, scriptedModel, spawnHel, tempProject } from "../_helpers.ts";
import { helOnTerminal } from "../_terminal.ts";

Deno.test("interactive chat keeps one conversation across prompts and leaves on /exit", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "first answer" }, { text: "second answer" }]);
  const hel = helOnTerminal(project, [
    "--base-url",
    model.url,
    "--model",
    "m",
    "--no-env",
  ]);
  await hel.type("hello\n");
  await eventually(() => model.requests.length === 1, "the first request");
  await pause(300);
  await hel.type("again\n");
  await eventually(() => model.requests.length === 2, "the second request");
  await pause(300);
  await hel.type("/exit\n");
  const { code, output: text } = await hel.finish();
  assert.equal(code, 0, text);
  assert.match(text, /hel — type \/exit or press Ctrl-D to quit/);
  // The pty echoes typed lines whenever they arrive, so check order rather than layout.
  assert.ok(text.indexOf("> ") < text.indexOf("first answer"), text);
  assert.ok(text.indexOf("first answer") < text.indexOf("second answer"), text);
  assert.match(text, /\[usage: 2 model calls/);
  const second = model.requests[1]!.messages.map((m: { role: string; content: string }) =>
    `${m.role}:${m.content}`
  );
  assert.deepEqual(second.slice(1), ["user:hello", "assistant:first answer", "user:again"]);
  assert.equal(model.remaining(), 0);
});

Deno.test("streamed text before a tool call ends its line before the [tool] line", async () => {
  await using project = await tempProject({ "a.txt": "alpha\n" });
  await using model = scriptedModel([
    { text: "Let me look.", toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] },
    { text: "It says alpha." },
  ]);
  const hel = helOnTerminal(project, ["--base-url", model.url, "--model", "m", "--access", "auto"]);
  await hel.type("what is in a.txt?\n");
  await hel.waitFor("It says alpha.");
  // The next prompt, after the usage line: typed earlier, the terminal would echo /exit there.
  await hel.waitFor("]\r\n> ");
  await hel.type("/exit\n");
  const { code, output: text } = await hel.finish();
  assert.equal(code, 0, text);
  assert.match(
    text,
    /Let me look\.\r?\n\[tool\] read_file \{"path":"a\.txt"\}\r?\nIt says alpha\./m,
  );
  // The session, saved at the first answer, is named when the chat ends, not among the answers.
  assert.match(text, /> \/exit\r?\nsession: [0-9a-f-]{36}\r?\n/);
  assert.equal(model.remaining(), 0);
});

Deno.test("Ctrl-C in the chat cancels the request in flight and the chat goes on", async () => {
  await using project = await tempProject();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  await using model = scriptedModel([async () => {
    await held; // answered only after the test pressed Ctrl-C
    return { text: "too late" };
  }, { text: "after the interrupt" }]);
  const hel = helOnTerminal(project, ["--base-url", model.url, "--model", "m", "--no-env"]);
  try {
    await hel.type("first\n");
    await eventually(() => model.requests.length === 1, "the first request");
    await hel.type("\x03"); // Ctrl-C on the terminal
    await hel.waitFor("hel: interrupted");
    await hel.type("second\n");
    await hel.waitFor("after the interrupt");
    await hel.type("/exit\n");
  } finally {
    release();
  }
  const { code, output } = await hel.finish();
  assert.equal(code, 0, output);
  assert.doesNotMatch(output, /too late/);
  const messages = model.requests[1]!.messages.map((m: { role: string; content: string }) =>
    `${m.role}:${m.content}`
  );
  // The model knows the person interrupted its last turn.
  assert.deepEqual(messages.slice(1), [
    "user:first",
    "assistant:[interrupted by the person]",
    "user:second",
  ]);
  assert.equal(model.remaining(), 0);
});

Deno.test("Ctrl-C at a permission question declines the call, ends the turn, and the chat goes on", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([
    { toolCalls: [{ name: "bash", arguments: { command: "touch ran.txt" } }] },
    { text: "the next turn" },
  ]);
  const hel = helOnTerminal(project, ["--base-url", model.url, "--model", "m", "--no-env"]);
  await hel.type("make a file\n");
  await hel.waitFor("Allow this call once? [y/N]");
  await hel.type("\x03"); // Ctrl-C at the question, before any answer
  await hel.waitFor("hel: interrupted");
  // The next line typed goes to the chat, not to the abandoned question.
  await hel.type("and now?\n");
  await hel.waitFor("the next turn");
  await hel.type("/exit\n");
  const { code, output } = await hel.finish();
  assert.equal(code, 0, output);
  await assert.rejects(() => Deno.stat(`${project.project}/ran.txt`), Deno.errors.NotFound);
  const messages = model.requests[1]!.messages;
  assert.match(messages.at(-3).content, /^error: permission denied: bash .*declined/);
  assert.equal(messages.at(-2).content, "[interrupted by the person]");
  assert.equal(messages.at(-1).content, "and now?");
  assert.equal(model.remaining(), 0);
});

Deno.test("a mistyped slash command is answered with where to find the real ones, not sent to the model", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "answered /usr/bin" }]);
  const hel = helOnTerminal(project, ["--base-url", model.url, "--model", "m", "--no-env"]);
  await hel.type("/exti\n");
  await hel.waitFor("unknown command /exti — /help lists them");
  await hel.type("/usr/bin holds what?\n"); // a path is a message, not a command
  await hel.waitFor("answered /usr/bin");
  await hel.type("/exit\n");
  const { code, output } = await hel.finish();
  assert.equal(code, 0, output);
  assert.equal(model.requests.length, 1);
  assert.equal(model.requests[0]!.messages.at(-1).content, "/usr/bin holds what?");
  assert.equal(model.remaining(), 0);
});

Deno.test("a pasted block of lines is one message, not one turn per line", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "one answer" }, { text: "typed answer" }]);
  const hel = helOnTerminal(project, ["--base-url", model.url, "--model", "m", "--no-env"]);
  await hel.type("why does this fail?\nError: boom\n    at main (main.ts:3:9)\n");
  await hel.waitFor("one answer");
  await hel.type("thanks\n");
  await hel.waitFor("typed answer");
  await hel.type("/exit\n");
  const { code, output } = await hel.finish();
  assert.equal(code, 0, output);
  assert.equal(model.requests.length, 2);
  assert.equal(
    model.requests[0]!.messages.at(-1).content,
    "why does this fail?\nError: boom\n    at main (main.ts:3:9)",
  );
  assert.equal(model.requests[1]!.messages.at(-1).content, "thanks");
  assert.equal(model.remaining(), 0);
});

Deno.test("Ctrl-D at the prompt leaves with exit 0", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([]);
  const hel = helOnTerminal(project, ["--base-url", model.url]);
  await pause(1500);
  await hel.type("\x04");
  const { code } = await hel.finish();
  assert.equal(code, 0);
});

Deno.test("Ctrl-C cancels the request in flight and exits 130 (one-shot)", async () => {
  await using project = await tempProject();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  let reached = false;
  await using model = scriptedModel([async () => {
    reached = true;
    await held; // hold the request open until the test interrupts hel
    return { text: "too late" };
  }]);
  const child = spawnHel(project, ["--base-url", model.url, "--model", "m", "hi"]);
  await eventually(() => reached, "the request");
  child.kill("SIGINT");
  const output = await child.output();
  release();
  assert.equal(output.code, 130, new TextDecoder().decode(output.stderr));
  assert.equal(new TextDecoder().decode(output.stdout), "");
  assert.match(new TextDecoder().decode(output.stderr), /hel: interrupted/);
});

Deno.test("approval questions in confirm mode without a terminal count as denials", async () => {
  await using project = await tempProject({ "a.txt": "old" });
  await using model = scriptedModel([
    { toolCalls: [{ name: "write_file", arguments: { path: "a.txt", content: "new" } }] },
    { text: "could not write" },
  ]);
  const result = await runHel(["--base-url", model.url, "--model", "m", "-i", "write"], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await project.read("a.txt"), "old");
  const toolMessage = model.requests[1]!.messages.at(-1);
  assert.match(toolMessage.content, /^error: permission denied: write_file \(access=confirm/);
});
