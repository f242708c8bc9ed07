/** A run switching sessions between turns: `/clear` (a new one) and `/resume` (a saved one). */
import assert from "node:assert/strict";
import { NEVER, probePlugin, startTestRun } from "./run_testing.ts";
import tools from "../plugins/tools/mod.ts";
import { journalPath } from "./session/journal.ts";

const whoami = { toolCalls: [{ name: "whoami", arguments: {} }] };
const journalOf = (project: string, id: string) =>
  Deno.readTextFile(journalPath(`${project}/.hel/sessions/${id}`));

Deno.test("a new session starts an empty conversation under a rebuilt system message and leaves the old one as it was", async () => {
  await using t = await startTestRun({
    turns: { m: [whoami, { text: "first answer" }, whoami, { text: "second answer" }] },
    files: { "HEL.md": "old rules" },
  });
  const { run, project } = t;
  await run.turn("first task", NEVER);
  const first = run.session.id;
  const saved = await journalOf(project, first);
  await Deno.writeTextFile(`${project}/HEL.md`, "new rules");

  await run.newSession();
  assert.notEqual(run.session.id, first);
  assert.deepEqual(run.conversation(), []);
  await run.turn("second task", NEVER);
  const request = t.models.get("m")!.requests[2]!;
  assert.deepEqual(request.messages.map((m) => m.role), ["system", "user"]);
  assert.match(request.messages[0].content, /new rules/);
  assert.equal(request.messages[1].content, "second task");
  // The plugin sees the new session and starts from its state at the start of the run.
  const result = t.models.get("m")!.requests[3]!.messages.at(-1);
  assert.equal(result.content, `session ${run.session.id}, call 1`);
  assert.deepEqual(run.pluginStatus(), [{ plugin: "probe", lines: ["1 calls so far"] }]);

  assert.equal(await journalOf(project, first), saved);
  // The old session's lock is released: another hel can resume it now.
  await using other = await t.another({ resume: first });
  assert.equal(other.session.id, first);
});

Deno.test("resuming a saved session continues its conversation and plugin state and returns it for display", async () => {
  await using t = await startTestRun({
    turns: {
      m: [whoami, { text: "first answer" }, { text: "other answer" }, whoami, { text: "again" }],
    },
  });
  const { run } = t;
  await run.turn("first task", NEVER);
  const first = run.session.id;
  await run.newSession();
  await run.turn("other task", NEVER);
  const second = run.session.id;

  const listed = await run.savedSessions();
  assert.deepEqual(listed.map((s) => [s.id, s.firstPrompt]), [[first, "first task"]]);
  assert.ok(listed[0]!.messages >= 4 && listed[0]!.updatedAt.length > 0);
  assert.equal(listed[0]!.turns, 1);

  const resumed = await run.resumeSession(first);
  assert.equal(run.session.id, first);
  assert.equal(resumed.id, first);
  assert.deepEqual(resumed.messages.map((m) => m.role), ["user", "assistant", "tool", "assistant"]);
  assert.equal(resumed.messages[0]!.content, "first task");
  assert.deepEqual(run.conversation(), resumed.messages);

  await run.turn("continue", NEVER);
  const requests = t.models.get("m")!.requests;
  const sent = requests[3]!.messages;
  assert.equal(sent[1].content, "first task");
  assert.equal(sent.at(-1).content, "continue");
  assert.equal(requests[4]!.messages.at(-1).content, `session ${first}, call 2`);
  // Back in the first session, the second one is free and is offered in its place.
  assert.deepEqual((await run.savedSessions()).map((s) => s.id), [second]);
  await using other = await t.another({ resume: second });
  assert.equal(other.session.id, second);
});

Deno.test("resuming refuses this session, an unknown one and one hel did not create, and the chat stays", async () => {
  await using t = await startTestRun({ turns: { m: [{ text: "one" }, { text: "two" }] } });
  const { run, project } = t;
  await run.turn("first task", NEVER);
  const current = run.session.id;
  await assert.rejects(() => run.resumeSession(current), /is the one this chat is in already/);
  const unknown = crypto.randomUUID();
  await assert.rejects(() => run.resumeSession(unknown), /no session .* in this project/);
  // A session folder hel has no record of (a program or a cloned repository made it).
  const forged = crypto.randomUUID();
  await Deno.mkdir(`${project}/.hel/sessions/${forged}`);
  const copy = (await journalOf(project, current)).replaceAll(current, forged);
  await Deno.writeTextFile(journalPath(`${project}/.hel/sessions/${forged}`), copy);
  await assert.rejects(() => run.resumeSession(forged), /hel did not create it/);
  assert.deepEqual(await run.savedSessions(), []);

  assert.equal(run.session.id, current);
  await run.turn("still here", NEVER);
  assert.deepEqual(
    run.conversation().map((m) => m.content),
    ["first task", "one", "still here", "two"],
  );
});

Deno.test("after a switch, large results spill into the new session and read_file can read them", async () => {
  const readSpill = (request: { messages: { content: string }[] }) => {
    const path = /saved at (\S+\.txt)\./.exec(request.messages.at(-1)!.content)?.[1];
    return { toolCalls: [{ name: "read_file", arguments: { path, start_line: 4_990 } }] };
  };
  await using t = await startTestRun({
    plugins: () => [tools(), probePlugin()],
    settings: { env: false },
    turns: {
      m: [
        { text: "one" },
        { toolCalls: [{ name: "big", arguments: {} }] },
        readSpill,
        { text: "read it" },
      ],
    },
  });
  const { run } = t;
  await run.turn("first", NEVER);
  await run.newSession();
  await run.turn("make a big result", NEVER);
  const requests = t.models.get("m")!.requests;
  const spilled = requests[2]!.messages.at(-1).content as string;
  assert.ok(spilled.includes(`/.hel/sessions/${run.session.id}/spill/`), spilled.slice(0, 300));
  const read = requests[3]!.messages.at(-1).content as string;
  assert.doesNotMatch(read, /^error/);
  assert.match(read, /line of text/);
});
