/**
 * The permission question in the Ink chat, through a real pseudo-terminal: the diff of a file
 * change, "don't ask again" for the session, and "no, and tell the model what to do instead".
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject, toolMessage } from "../_helpers.ts";
import { startChat } from "../_chat_terminal.ts";

Deno.test("a search_replace question shows its diff, 'a' skips the next one, and 'no' tells the model what to do instead", async () => {
  await using project = await tempProject({ "notes.txt": "alpha\nbeta\n" });
  const edit = (search: string, replace: string, id: string) => ({
    toolCalls: [{ id, name: "search_replace", arguments: { path: "notes.txt", search, replace } }],
  });
  await using model = scriptedModel([
    edit("beta", "gamma", "call_edit1"),
    edit("alpha", "omega", "call_edit2"),
    { toolCalls: [{ id: "call_bash", name: "bash", arguments: { command: "touch made.txt" } }] },
    { text: "understood" },
  ]);
  const chat = await startChat(project, ["--base-url", model.url, "--model", "m"]);
  await chat.send("tidy the notes");
  await chat.waitFor("+gamma");
  const question = await chat.screen();
  assert.ok(question.some((row) => /-beta\b/.test(row)), question.join("\n"));
  assert.ok(question.some((row) => row.includes("notes.txt")), question.join("\n"));
  await chat.press("a"); // yes, and don't ask again this session
  await chat.waitFor("touch made.txt");
  await chat.press("n");
  await chat.waitFor("What should hel do instead?");
  await chat.press("use ls instead");
  await chat.waitFor("use ls instead");
  await chat.press("\r");
  await chat.waitFor("understood");

  assert.equal(await project.read("notes.txt"), "omega\ngamma\n", "both edits ran");
  const transcript = (await chat.lines()).join("\n");
  assert.match(transcript, /allowed without asking/);
  assert.equal(
    (chat.output().match(/-alpha/g) ?? []).length,
    0,
    "the second edit was not asked about",
  );
  assert.match(transcript, /declined/);
  await assert.rejects(() => Deno.stat(`${project.project}/made.txt`), Deno.errors.NotFound);
  assert.match(
    toolMessage(model, "call_bash"),
    /The user says what to do instead: use ls instead/,
  );
  // NO_COLOR (the helper's default): red and green diff lines are told by - and + alone.
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(chat.output(), /\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|38|48)[;m]/);
  await chat.press("\x04");
  const { code, output } = await chat.finish();
  assert.equal(code, 0, output);
  assert.equal(model.remaining(), 0);
});
