/**
 * What the Ink chat shows while a tool runs, and when the terminal is too small for it, through
 * a real pseudo-terminal.
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { startChat } from "../_chat_terminal.ts";

Deno.test("a bash command's output is on screen while the command still runs", async () => {
  await using project = await tempProject();
  // The command waits for a file the test makes once its first line is on screen. What it
  // prints (1234-printed, 4321-printed) is computed, so the command shown is not mistaken for it.
  const command = "echo $((1000+234))-printed; while [ ! -e go ]; do sleep 0.05; done; " +
    "echo $((4000+321))-printed";
  await using model = scriptedModel([
    { toolCalls: [{ id: "call_wait", name: "bash", arguments: { command } }] },
    { text: "all done" },
  ]);
  const chat = await startChat(project, [
    "--base-url",
    model.url,
    "--model",
    "m",
    "--access",
    "auto",
  ]);
  await chat.send("run the slow command");
  await chat.waitFor("1234-printed");
  const running = (await chat.screen()).join("\n");
  assert.doesNotMatch(running, /4321-printed|all done/, running);
  await Deno.writeTextFile(`${project.project}/go`, "");
  await chat.waitFor("all done");
  assert.match((await chat.lines()).join("\n"), /4321-printed/);
  await chat.press("\x04");
  assert.equal((await chat.finish()).code, 0);
});

Deno.test("a terminal too small for the chat gets the plain line chat", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "small answer" }]);
  const chat = await startChat(project, ["--base-url", model.url, "--model", "m"], {
    rows: 8,
    ready: "hel — type /exit or press Ctrl-D to quit",
  });
  await chat.press("hello\r");
  await chat.waitFor("small answer");
  await chat.press("\x04");
  const { code, output } = await chat.finish();
  assert.equal(code, 0, output);
  assert.doesNotMatch(output, /╭/, "no box is drawn");
});
