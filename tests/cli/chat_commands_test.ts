/**
 * The slash commands in the plain line chat (the fallback for `TERM=dumb` and small
 * terminals), driven through a real pseudo-terminal.
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { helOnTerminal } from "../_terminal.ts";

Deno.test("the plain chat starts a new session with /clear, goes back with /resume by number and switches the model", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([
    { text: "first answer" },
    { text: "second answer" },
    { text: "resumed answer" },
  ]);
  const hel = helOnTerminal(project, ["--base-url", model.url, "--model", "m", "--no-env"]);
  await hel.type("first task\n");
  await hel.waitFor("first answer");
  await hel.type("/clear\n");
  await hel.waitFor("/resume returns to it");
  await hel.type("second task\n");
  await hel.waitFor("second answer");
  await hel.type("/resume\n");
  await hel.waitFor("number (Enter to cancel): ");
  assert.match(hel.output(), /Resume which session\?\r?\n {2}1\. first task · just now\r?\n/);
  await hel.type("1\n");
  await hel.waitFor("the conversation goes on from here");
  await hel.type("/model other\n");
  await hel.waitFor("model: other from the next request on (was m)");
  await hel.type("go on\n");
  await hel.waitFor("resumed answer");
  await hel.type("/status\n");
  await hel.waitFor("tokens");
  await hel.type("/exit\n");
  const { code, output } = await hel.finish();
  assert.equal(code, 0, output);

  const first = /session: ([0-9a-f-]{36})/.exec(output)![1]!;
  assert.match(output, new RegExp(`resumed session ${first};`));
  assert.match(output, /\[user\]\r?\nfirst task\r?\n\r?\n\[assistant\]\r?\nfirst answer/);
  assert.match(output, new RegExp(`session +${first}\\r?\\n`));
  assert.match(output, /model +other\r?\n/);
  // The resumed conversation goes on with the other model; the second one is not in it.
  const third = model.requests[2]!;
  assert.equal(third.body.model, "other");
  assert.deepEqual(
    third.messages.slice(1).map((message: { content: string }) => message.content),
    ["first task", "first answer", "go on"],
  );
  assert.equal(model.remaining(), 0);
});
