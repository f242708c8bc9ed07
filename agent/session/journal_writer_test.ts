/** The writer's turn stamps, and a new session's journal kept in memory until its first answer. */
import assert from "node:assert/strict";
import { journalPath, readJournal } from "./journal.ts";
import { deferredJournalWriter, openJournalFile, openJournalWriter } from "./journal_writer.ts";

const user = (content: string) =>
  ({ type: "message", message: { role: "user", content } }) as const;
const answer = { type: "message", message: { role: "assistant", content: "ok" } } as const;

Deno.test("every entry is stamped with the person's turns so far, from where a resume starts", async () => {
  const dir = await Deno.makeTempDir();
  const writer = await openJournalWriter(dir, { turns: 4 });
  writer.add({ type: "system", content: "s" }, 1);
  writer.add(user("one"), 2);
  writer.add(answer, 3);
  writer.add(user("two"), 4);
  await writer.sync();
  writer.close();
  const { entries } = await readJournal(dir);
  assert.deepEqual(entries.map((entry) => entry.u), [4, 5, 5, 6]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a deferred journal makes no file until begin; then writes all, in order, with their times", async () => {
  const dir = await Deno.makeTempDir();
  let opened = 0;
  let failing = true;
  const writer = deferredJournalWriter(async () => {
    opened++;
    if (failing) throw new Error("no room");
    return await openJournalFile(dir);
  });
  writer.add(user("first"), 1);
  await writer.flush();
  await writer.sync();
  assert.equal(opened, 0);
  assert.equal(writer.begun, false);
  await assert.rejects(() => Deno.stat(journalPath(dir)), Deno.errors.NotFound);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const before = new Date().toISOString();

  writer.begin();
  writer.add(answer, 2);
  // The folder cannot be made: the flush fails, the entries wait for the next one.
  await assert.rejects(() => writer.flush(), /no room/);
  failing = false;
  writer.add(user("second"), 3);
  await writer.flush();
  writer.close();
  assert.equal(opened, 2);
  const { entries } = await readJournal(dir);
  assert.deepEqual(entries.map((e) => e.type === "message" && e.message.content), [
    "first",
    "ok",
    "second",
  ]);
  assert.ok(entries[0]!.t < before, "the first entry keeps the time it was added");
  assert.deepEqual(entries.map((entry) => entry.u), [1, 1, 2]);
  await Deno.remove(dir, { recursive: true });
});
