/**
 * A model request that fails and is retried, in the full-screen chat: the retry is shown in
 * place on the working line (never one transcript line per retry), and a request that keeps
 * failing ends with the same cause as the one-shot's final line.
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { startChat } from "../_chat_terminal.ts";

Deno.test("the chat shows a retry in place on the working line, then the cause once", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([
    { fail: 503, retryAfterMs: 1_500 },
    { fail: 503, retryAfterMs: 1_500 },
    { fail: 500, retryAfterMs: 20 },
    { fail: 500, retryAfterMs: 20 },
    { fail: 500 },
    { text: "back again" },
  ]);
  const chat = await startChat(project, ["--base-url", model.url, "--model", "m"]);
  await chat.send("hello");
  await chat.waitFor(/Working… .*HTTP 503: 503 scripted failure 503; retry 1 of 4 in 1\.5 s/);
  await chat.waitFor(/Working… .*retry 2 of 4 in 1\.5 s/);
  const cause =
    "hel: model API returned HTTP 500: 500 scripted failure 500 (gave up after 5 attempts)";
  await chat.waitFor(cause);
  const lines = await chat.lines();
  assert.deepEqual(lines.filter((line) => /retry \d of 4/.test(line)), [], lines.join("\n"));
  assert.equal(lines.filter((line) => line.includes(cause)).length, 1, lines.join("\n"));

  // The chat goes on, and the next answer comes with no retry left on screen.
  await chat.send("again?");
  await chat.waitFor("back again");
  await chat.waitUntil((rows) => !rows.some((row) => row.includes("Working…")), "the turn's end");
  assert.ok(!(await chat.lines()).some((line) => /retry \d of 4/.test(line)));
  await chat.press("\x04");
  assert.equal((await chat.finish()).code, 0);
});
