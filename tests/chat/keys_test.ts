/**
 * The Ink chat's keys while hel works, through a real pseudo-terminal: the spinner while a
 * request is held, a message typed meanwhile queued, Esc interrupting, double Ctrl-C leaving.
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { startChat } from "../_chat_terminal.ts";

Deno.test("while a request is held the spinner shows, a typed message is queued, Esc interrupts and Ctrl-C twice leaves", async () => {
  await using project = await tempProject();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  await using model = scriptedModel([async () => {
    await held; // answered only after the test pressed Esc
    return { text: "too late" };
  }, { text: "the queued one is answered" }]);
  const chat = await startChat(project, ["--base-url", model.url, "--model", "m"]);
  try {
    await chat.send("start a long job");
    await chat.waitFor("esc to interrupt");
    await chat.send("and then this");
    await chat.waitFor("queued");
    await chat.press("\x1b"); // Esc
    await chat.waitFor("interrupted");
    await chat.waitFor("the queued one is answered");
  } finally {
    release();
  }
  const messages = model.requests[1]!.messages.map((m: { role: string; content: string }) =>
    `${m.role}:${m.content}`
  );
  assert.equal(messages[1], "user:start a long job");
  assert.match(messages[2]!, /^assistant:.*\[interrupted by the person\]/);
  assert.equal(messages.at(-1), "user:and then this");
  const screen = (await chat.lines()).join("\n");
  assert.doesNotMatch(screen, /too late/);

  await chat.press("\x03"); // Ctrl-C
  await chat.waitFor("press Ctrl-C again to exit");
  await chat.press("\x03");
  const { code, output } = await chat.finish();
  assert.equal(code, 0, output);
  assert.match(output, /hel --resume [0-9a-f-]{36}/);
  assert.equal(model.remaining(), 0);
});
