/** Unit tests of what a run records in its journal. */
import assert from "node:assert/strict";
import type { ChatMessage } from "../core/types.ts";
import type { EntryBody } from "./session/journal.ts";
import type { JournalWriter } from "./session/journal_writer.ts";
import { createRecorder } from "./recorder.ts";

function fakeJournal(fail: () => boolean) {
  const queued: [EntryBody, number][] = [];
  const written: [EntryBody, number][] = [];
  const journal: JournalWriter = {
    add: (body, n) => void queued.push([body, n]),
    flush: () => {
      if (fail()) return Promise.reject(new Error("disk full"));
      written.push(...queued.splice(0));
      return Promise.resolve();
    },
    sync: () => journal.flush(),
    close: () => {},
  };
  return { journal, written };
}

/** A recorder over `messages` with the fake journal; warnings are collected. */
function recorderOver(journal: JournalWriter, messages: ChatMessage[], retained = 0) {
  const warnings: string[] = [];
  const recorder = createRecorder({
    journal,
    messages,
    states: () => ({}),
    retained: () => retained,
    log: { warn: (text) => warnings.push(text), info: () => {} },
    sessionId: "s",
  });
  return { recorder, warnings };
}

Deno.test("messages the loop adds are caught up in order, each with the count after it", async () => {
  const { journal, written } = fakeJournal(() => false);
  const messages: ChatMessage[] = [{ role: "system", content: "sys" }];
  const { recorder, warnings } = recorderOver(journal, messages);
  messages.push({ role: "user", content: "hi" });
  await recorder.sync();
  const answer: ChatMessage = { role: "assistant", content: "hello" };
  await recorder.record(answer);
  messages.push(answer);
  await recorder.endTurn("completed", undefined);
  assert.deepEqual(written.map(([body, n]) => `${body.type}:${n}`), [
    "message:2",
    "plugins:2",
    "message:3",
    "turn_end:3",
  ]);
  assert.deepEqual(warnings, []);
});

Deno.test("a compaction becomes a checkpoint; a failing journal warns once and catches up later", async () => {
  let failing = true;
  const { journal, written } = fakeJournal(() => failing);
  const messages: ChatMessage[] = [
    { role: "system", content: "sys" },
    { role: "user", content: "old" },
    { role: "assistant", content: "old answer" },
  ];
  const { recorder, warnings } = recorderOver(journal, messages, 1);
  messages.push({ role: "user", content: "new" });
  await recorder.sync();
  await recorder.sync();
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0]!,
    /session s: the journal could not be written: disk full\. .*in memory/,
  );
  await recorder.rewriting(() => {
    messages.splice(1, 2, { role: "user", content: "summary" });
    return Promise.resolve(true);
  });
  failing = false;
  await recorder.sync();
  const types = written.map(([body]) => body.type);
  assert.deepEqual(types, ["message", "plugins", "checkpoint"]);
  const checkpoint = written[2]![0];
  assert.ok(checkpoint.type === "checkpoint");
  assert.deepEqual(checkpoint.messages.map((m) => m.content), ["summary", "new"]);
  assert.equal(checkpoint.retained, 1);
  assert.equal(checkpoint.replaced, 3);
});
