/** What the chat's commands ask of a run: the model, compacting now, context used, tools. */
import assert from "node:assert/strict";
import { NEVER, startTestRun } from "./run_testing.ts";
import { journalPath, parseJournal } from "./session/journal.ts";
import { conversationTokens } from "./compaction/plan.ts";
import { promptTokens } from "../fixtures/script.ts";

Deno.test("setModel sends later requests to that model and the session journal notes it", async () => {
  await using t = await startTestRun({
    turns: { m: [{ text: "from m" }], other: [{ text: "hi" }] },
  });
  const { run } = t;
  await run.turn("first", NEVER);
  await run.setModel("other");
  assert.equal(run.model, "other");
  assert.deepEqual(t.modelIds, ["m", "other"]);
  await run.turn("second", NEVER);
  assert.equal(t.models.get("m")!.requests.length, 1);
  const sent = t.models.get("other")!.requests[0]!.messages;
  assert.deepEqual(sent.slice(1).map((m) => m.content), ["first", "from m", "second"]);
  const journal = parseJournal(
    await Deno.readTextFile(journalPath(`${t.project}/.hel/sessions/${run.session.id}`)),
  );
  const settings = journal.entries.flatMap((entry) => entry.type === "run" ? [entry.settings] : []);
  assert.deepEqual(settings.map((s) => [s.model, s.changed]), [["m", undefined], [
    "other",
    "model",
  ]]);
});

Deno.test("compact acts on a small conversation when asked and reports what it did", async () => {
  await using t = await startTestRun({
    turns: {
      m: [
        { text: "answer one ".repeat(200) },
        { text: "answer two ".repeat(200) },
        { text: "## Primary Request and Intent\n- the work so far" },
      ],
    },
  });
  const { run } = t;
  await run.turn("question one ".repeat(200), NEVER);
  await run.turn("question two ".repeat(200), NEVER);
  const report = await run.compact(NEVER);
  assert.equal(t.models.get("m")!.purposes.at(-1), "compaction");
  assert.equal(report.summarised, 3);
  assert.equal(report.messagesBefore, 4);
  assert.equal(report.messagesAfter, 2);
  assert.ok(report.tokensAfter < report.tokensBefore / 2, JSON.stringify(report));
  assert.match(String(run.conversation()[0]!.content), /<compacted-summary>/);
  // What a resume continues from is the compacted conversation.
  const journal = await Deno.readTextFile(
    journalPath(`${t.project}/.hel/sessions/${run.session.id}`),
  );
  assert.match(journal, /"type":"checkpoint"/);
});

Deno.test("compact says why when compaction is off", async () => {
  await using t = await startTestRun({
    turns: { m: [{ text: "ok" }] },
    settings: { compaction: undefined },
  });
  await t.run.turn("hello", NEVER);
  const report = await t.run.compact(NEVER);
  assert.equal(report.summarised, 0);
  assert.equal(report.skipped, "compaction is off in this run (--no-compaction)");
  assert.equal(report.messagesAfter, 2);
  assert.equal(t.models.get("m")!.requests.length, 1);
});

Deno.test("context usage is the server's count of the last request, estimated before there is one", async () => {
  await using t = await startTestRun({ turns: { m: [{ text: "short answer" }] } });
  const { run } = t;
  const before = run.contextUsage();
  assert.equal(before.window, 1_000_000);
  assert.equal(before.estimated, true);
  assert.ok(before.used! > 0);
  await run.turn("hello", NEVER);
  const request = t.models.get("m")!.requests[0]!;
  const after = run.contextUsage();
  assert.equal(after.estimated, false);
  // The scripted model's count of what it was sent, and the answer estimated on top.
  const answer = conversationTokens([run.conversation().at(-1)!]);
  assert.equal(after.used, promptTokens(request) + answer);
  await run.newSession();
  assert.equal(run.contextUsage().estimated, true);
  assert.ok(run.contextUsage().used! < after.used!);
});

Deno.test("tools lists every tool offered with the first line of its description", async () => {
  await using t = await startTestRun();
  assert.deepEqual(t.run.tools(), [
    { name: "whoami", summary: "Names the session." },
    { name: "big", summary: "Answers 60,000 characters." },
  ]);
});
