/** Unit tests of the journal's reading and appending. */
import assert from "node:assert/strict";
import {
  journalPath,
  parseJournal,
  readJournal,
  readJournalEnds,
  readJournalForResume,
} from "./journal.ts";
import { openJournalWriter } from "./journal_writer.ts";
import { loadSessionState } from "./load.ts";
import type { SnapshotError } from "./snapshot.ts";
import type { EntryBody } from "./journal.ts";

const head = { type: "session", session_id: "s", project: "/p", created_at: "2026-01-01" } as const;
const user = (content: string) =>
  ({ type: "message", message: { role: "user", content } }) as const;

/** A journal of `bodies`, written through the writer; returns its folder. */
async function journal(bodies: EntryBody[]) {
  const dir = await Deno.makeTempDir();
  const writer = await openJournalWriter(dir);
  bodies.forEach((body, index) => writer.add(body, index + 1));
  await writer.sync();
  writer.close();
  return dir;
}

Deno.test("entries carry version, time and count; a torn last line is reported, not read", () => {
  const line = JSON.stringify({ v: 1, t: "2026", n: 1, ...head });
  const whole = parseJournal(`${line}\n`);
  assert.equal(whole.entries.length, 1);
  assert.equal(whole.torn, undefined);
  const torn = parseJournal(`${line}\n{"v":1,"t":"2026","n":2,"type":"mess`);
  assert.equal(torn.entries.length, 1);
  assert.equal(torn.sound, line.length + 1);
  assert.match(torn.torn!, /last line was cut off mid-write and is ignored/);
});

Deno.test("a newer version is refused as such, not as damage; other bad lines are damage", () => {
  const newer = () => parseJournal(`{"v":2,"t":"x","n":1,"type":"what"}\n`);
  assert.throws(newer, (error: SnapshotError) => {
    assert.match(
      error.message,
      /written by a newer hel \(journal version 2; this hel reads version 1\)/,
    );
    assert.equal(error.damaged, false);
    return true;
  });
  assert.throws(() => parseJournal("nope\n"), /line 1 is not valid JSON/);
  assert.throws(() => parseJournal('{"v":1}\n'), /line 1 lacks its time or message count/);
});

Deno.test("the writer appends, and cuts a torn rest off before its first entry", async () => {
  const dir = await journal([head, user("one")]);
  await Deno.writeTextFile(journalPath(dir), '{"v":1,"t":"x","n":3,"ty', { append: true });
  const read = await readJournal(dir);
  assert.ok(read.torn);
  const writer = await openJournalWriter(dir, { sound: read.sound });
  writer.add(user("two"), 3);
  await writer.flush();
  writer.close();
  const after = await readJournal(dir);
  assert.equal(after.torn, undefined);
  assert.deepEqual(after.entries.map((entry) => entry.n), [1, 2, 3]);
  assert.equal((await Deno.stat(journalPath(dir))).mode! & 0o777, 0o600);
});

Deno.test("head and tail, and the resume's read, work across chunk edges and long lines", async () => {
  const long = "é".repeat(50_000); // 100,000 bytes: longer than a read chunk
  const checkpoint: EntryBody = {
    type: "checkpoint",
    messages: [{ role: "user", content: "summary" }],
    retained: 0,
    replaced: 7,
    plugins: { p: 1 },
  };
  const bodies = [head, ...Array.from({ length: 500 }, (_, i) => user(`${i} ${long.slice(0, i)}`))];
  const dir = await journal([...bodies, checkpoint, user(long), user("last")]);
  const ends = await readJournalEnds(dir);
  assert.equal(ends!.head.type, "session");
  assert.equal(ends!.tail.n, bodies.length + 3);
  const resume = await readJournalForResume(dir);
  assert.deepEqual(resume.entries.map((entry) => entry.type), [
    "session",
    "checkpoint",
    "message",
    "message",
  ]);
  const message = resume.entries[2]!;
  assert.equal(message.type === "message" && message.message.content, long);
  // Without a checkpoint the whole journal is read.
  const plain = await journal([head, user(long), user("b")]);
  assert.equal((await readJournalForResume(plain)).entries.length, 3);
  await Deno.writeTextFile(journalPath(plain), "x".repeat(70_000), { append: true });
  const torn = await readJournalForResume(plain);
  assert.equal(torn.entries.length, 3);
  assert.ok(torn.torn);
});

Deno.test("a journal that is a link or not a file is refused before it is read", async () => {
  const dir = await journal([head]);
  const other = await Deno.makeTempDir();
  await Deno.rename(journalPath(dir), `${other}/real.jsonl`);
  await Deno.symlink(`${other}/real.jsonl`, journalPath(dir));
  for (const read of [readJournal, readJournalEnds, readJournalForResume]) {
    await assert.rejects(() => read(dir), /journal\.jsonl is a symbolic link/);
  }
  await assert.rejects(() => openJournalWriter(dir), /link/);
  await Deno.remove(journalPath(dir));
  await Deno.mkdir(journalPath(dir));
  await assert.rejects(() => readJournal(dir), /not a regular file/);
});

Deno.test("an empty journal (created, never written) is a session with no saved conversation", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(journalPath(dir), "");
  await assert.rejects(() => loadSessionState(dir, "s", "/p"), Deno.errors.NotFound);
  assert.equal(await readJournalEnds(dir), undefined);
});
