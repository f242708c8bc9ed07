/**
 * "Don't ask again" saved as a permission rule from the Ink chat's question, through a real
 * pseudo-terminal: u writes it to the person's settings, p to the project's (comments kept, a
 * trusted file kept trusted), and the next such call runs without a question.
 */
import assert from "node:assert/strict";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { createTrustFileStore } from "../../kit/trust/file_store.ts";
import { scriptedModel, tempProject, toolMessage } from "../_helpers.ts";
import { startChat } from "../_chat_terminal.ts";
import { runHelInProcess } from "../_run.ts";

const SANDBOX = hasBwrap() ? [] : ["--sandbox", "off"];

const echo = (id: string, word: string) => ({
  toolCalls: [{ id, name: "bash", arguments: { command: `echo ${word}` } }],
});

Deno.test("u saves bash(echo:*) in the person's settings, and the next echo is not asked about", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([echo("c1", "one"), echo("c2", "two"), { text: "done" }]);
  const chat = await startChat(project, ["--base-url", model.url, "--model", "m", ...SANDBOX]);
  await chat.send("say it twice");
  await chat.waitFor("always allow bash(echo:*)");
  await chat.press("u");
  await chat.waitFor("done");

  const settings = `${project.root}/hel-home/settings.jsonc`;
  assert.deepEqual(JSON.parse(await Deno.readTextFile(settings)), {
    permissions: { allow: ["bash(echo:*)"] },
  });
  const transcript = (await chat.lines()).join("\n");
  assert.match(transcript, /saved the rule bash\(echo:\*\) in .*settings\.jsonc/);
  assert.equal((chat.output().match(/\$ echo two/g) ?? []).length, 0, "not asked again");
  assert.equal(toolMessage(model, "c2"), "exit=0\ntwo\n");
  await chat.send("/permissions");
  await chat.waitFor("saved from this chat's questions");
  await chat.waitFor(/bash\(echo:\*\) in .*settings\.jsonc/);
  await chat.press("\x04");
  assert.equal((await chat.finish()).code, 0);

  // The next run follows the saved rule: confirm, no terminal to ask on, and echo still runs.
  await using next = scriptedModel([echo("c3", "three"), { text: "done" }]);
  const result = await runHelInProcess(
    ["--base-url", next.url, "--access", "confirm", ...SANDBOX, "again"],
    { cwd: project.project },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(toolMessage(next, "c3"), "exit=0\nthree\n");
});

Deno.test("p saves the rule in the project's settings, keeping its comments and its trust", async () => {
  const before = '{\n  // the team\'s rules\n  "permissions": { "allow": ["read_file"] }\n}\n';
  await using project = await tempProject({ ".hel/settings.jsonc": before });
  const helHome = `${project.root}/hel-home`;
  const trust = createTrustFileStore(helHome, () => {});
  await trust.record("settings", project.project, new TextEncoder().encode(before));
  await using model = scriptedModel([echo("c1", "one"), echo("c2", "two"), { text: "done" }]);
  const chat = await startChat(project, ["--base-url", model.url, "--model", "m", ...SANDBOX]);
  await chat.send("say it twice");
  await chat.waitFor("in this project from now on");
  await chat.press("p");
  await chat.waitFor("done");
  await chat.press("\x04");
  assert.equal((await chat.finish()).code, 0);

  const after = await project.read(".hel/settings.jsonc");
  assert.match(after, /\/\/ the team's rules/);
  assert.match(after, /"read_file",\s*"bash\(echo:\*\)"/);
  assert.equal(
    await trust.isTrusted("settings", project.project, new TextEncoder().encode(after)),
    true,
    "hel's own change keeps a trusted file trusted",
  );
  assert.equal(toolMessage(model, "c2"), "exit=0\ntwo\n");
  assert.equal((chat.output().match(/\$ echo two/g) ?? []).length, 0, "not asked again");

  // The next run applies the project's allow rule at once: the file's new bytes are trusted.
  await using next = scriptedModel([echo("c3", "three"), { text: "done" }]);
  const result = await runHelInProcess(
    ["--base-url", next.url, "--access", "confirm", ...SANDBOX, "again"],
    { cwd: project.project },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(toolMessage(next, "c3"), "exit=0\nthree\n");
  assert.doesNotMatch(result.stderr, /not trusted/);
});
