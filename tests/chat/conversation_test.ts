/**
 * The Ink chat driven through a real pseudo-terminal and read off a terminal emulator's
 * screen: rendered answers, history, multi-line and pasted messages, leaving.
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { startChat } from "../_chat_terminal.ts";
import { command, group, hooksJson } from "../_hooks.ts";

const lastUser = (request: { messages: { role: string; content: string }[] }) =>
  request.messages.filter((m) => m.role === "user").at(-1)?.content;

Deno.test("an answer is rendered as markdown, ↑ recalls the message, Ctrl-D leaves with the resume hint, and --resume shows it all again", async () => {
  await using project = await tempProject();
  const answer = "# Results\n\nAll **green** now.\n\n```ts\nconst total = 42;\n```\n";
  await using model = scriptedModel([{ text: answer }, { text: "same again" }]);
  const chat = await startChat(project, ["--base-url", model.url, "--model", "m"], {
    color: true,
  });
  await chat.send("how are the tests?");
  await chat.waitFor("const total = 42;");
  const rows = await chat.screen();
  assert.ok(rows.some((row) => /^\s*Results$/.test(row)), rows.join("\n"));
  assert.ok(rows.some((row) => row.includes("All green now.")), rows.join("\n"));
  assert.ok(
    !rows.some((row) => /^\s*#|```|\*\*/.test(row)),
    `markdown marks left:\n${rows.join("\n")}`,
  );
  // Highlighted: the code's keyword is drawn in a colour, the prose in the default one.
  const buffer = chat.terminal.buffer.active;
  const codeRow = rows.findIndex((row) => row.includes("const total"));
  const line = buffer.getLine(buffer.viewportY + codeRow)!;
  const keyword = line.getCell(rows[codeRow]!.indexOf("const"))!;
  assert.ok(!keyword.isFgDefault(), "the keyword const is coloured");

  await chat.press("\x1b[A"); // ↑
  await chat.waitUntil(
    (screen) => screen.filter((row) => row.includes("how are the tests?")).length >= 2,
    "the recalled message in the input box",
  );
  await chat.press("\r");
  await chat.waitFor("same again");
  assert.equal(lastUser(model.requests[1]!), "how are the tests?");

  await chat.press("\x04"); // Ctrl-D on the empty box
  const { code, output } = await chat.finish();
  assert.equal(code, 0, output);
  const session = (await Array.fromAsync(Deno.readDir(`${project.project}/.hel/sessions`)))[0]!;
  assert.match(output, new RegExp(`hel --resume ${session.name}`));
  assert.equal(model.remaining(), 0);

  // --resume shows the earlier conversation, rendered, before the box.
  const resumed = await startChat(project, [
    "--base-url",
    model.url,
    "--model",
    "m",
    "--resume",
    session.name,
  ]);
  await resumed.waitFor("same again");
  const earlier = (await resumed.screen()).join("\n");
  assert.match(earlier, /how are the tests\?[\s\S]*All green now\.[\s\S]*same again/);
  assert.doesNotMatch(earlier, /```|\*\*/);
  await resumed.press("\x04");
  assert.equal((await resumed.finish()).code, 0);
});

Deno.test("a multi-line message and a paste without a final newline each arrive whole, and /help completes and runs", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "got three lines" }, { text: "got the paste" }]);
  const chat = await startChat(project, ["--base-url", model.url, "--model", "m"]);
  await chat.press("first line");
  await chat.waitFor("first line");
  await chat.press("\n"); // Ctrl-J
  await chat.press("second line\\");
  await chat.waitFor("second line\\");
  await chat.press("\r"); // \ then Enter: a new line, not a send
  // Keys that reach Ink in one read with the Enter would be taken as typed text, Enter included.
  await chat.waitUntil(
    (rows) => rows.some((row) => /second line\s*│?$/.test(row)),
    "the backslash gone",
  );
  await chat.send("third");
  await chat.waitFor("got three lines");
  assert.equal(lastUser(model.requests[0]!), "first line\nsecond line\nthird");

  const pasted = Array.from({ length: 8 }, (_, i) => `pasted line ${i + 1}`).join("\n");
  await chat.press(`\x1b[200~${pasted}\x1b[201~`);
  await chat.waitFor("[pasted 8 lines]");
  await chat.press("\r");
  await chat.waitFor("got the paste");
  assert.equal(lastUser(model.requests[1]!), pasted);

  // A slash command completes with Tab, runs in the chat and never reaches the model.
  await chat.press("/hel");
  await chat.waitFor("list the commands and keys");
  await chat.press("\t");
  await chat.waitFor("> /help");
  await chat.press("\r");
  await chat.waitFor("Ctrl-R");
  assert.equal(model.requests.length, 2);
  await chat.press("\x04");
  const { code, output } = await chat.finish();
  assert.equal(code, 0, output);
  assert.equal(model.remaining(), 0);
});

Deno.test("TERM=dumb gets the plain line chat, with no escape sequence on the terminal", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "# Plain\n\nanswer" }]);
  const chat = await startChat(project, ["--base-url", model.url, "--model", "m"], {
    env: { TERM: "dumb" },
    ready: "hel — type /exit or press Ctrl-D to quit",
  });
  await chat.press("hello\r");
  await chat.waitFor("answer");
  await chat.press("\x04");
  const { code, output } = await chat.finish();
  assert.equal(code, 0, output);
  assert.equal(lastUser(model.requests[0]!), "hello");
  // Deno itself clears its download-progress line before hel's code runs: from hel's first
  // line on, nothing is an escape.
  const fromHel = output.slice(output.indexOf("hel"));
  assert.ok(!fromHel.includes("\x1b"), JSON.stringify(output));
});

Deno.test("a trust question answered before the chat starts leaves every later key to the chat", async () => {
  await using project = await tempProject({
    ".hel/hooks.json": hooksJson([group("bash", command("true"))]),
  });
  await using model = scriptedModel([{ text: "after the review" }]);
  const chat = await startChat(project, ["--base-url", model.url, "--model", "m"], {
    ready: "Trust this project's hook configuration? [y/N]",
  });
  await chat.press("y\r");
  await chat.waitFor("Enter sends");
  await chat.send("hello");
  await chat.waitFor("after the review");
  assert.equal(lastUser(model.requests[0]!), "hello");
  await chat.press("\x04");
  const { code, output } = await chat.finish();
  assert.equal(code, 0, output);
});
