/** What a saved session's summary says, read from its journal's ends (summary.ts). */
import assert from "node:assert/strict";
import { checkpointMessage } from "../compaction/plan.ts";
import type { EntryBody } from "./journal.ts";
import { readSummary, START_SCAN_BYTES } from "./summary.ts";

async function withJournal(
  bodies: EntryBody[],
  check: (dir: string, id: string, project: string) => Promise<void>,
  stamps: (n: number) => Record<string, unknown> = () => ({}),
) {
  const project = await Deno.makeTempDir({ prefix: "hel-first-" });
  const id = crypto.randomUUID();
  const dir = `${project}/.hel/sessions/${id}`;
  await Deno.mkdir(dir, { recursive: true });
  const lines = bodies.map((body, n) =>
    JSON.stringify({ v: 1, t: `2026-01-01T00:00:0${n % 10}Z`, n, ...stamps(n), ...body })
  );
  await Deno.writeTextFile(`${dir}/journal.jsonl`, lines.join("\n") + "\n");
  try {
    await check(dir, id, project);
  } finally {
    await Deno.remove(project, { recursive: true });
  }
}

const head: EntryBody = { type: "session", session_id: "x", project: "/p", created_at: "now" };
const run: EntryBody = { type: "run", settings: { model: "m-1" } };

Deno.test("the first prompt is the first user message, a fork's is in its checkpoint, never a summary", async () => {
  await withJournal([
    head,
    run,
    { type: "system", content: "system" },
    { type: "message", message: { role: "user", content: "fix the build" } },
    { type: "message", message: { role: "user", content: "later" } },
  ], async (dir, id, project) => {
    const summary = await readSummary(dir, id, project);
    assert.equal(summary.firstPrompt, "fix the build");
    assert.equal(summary.model, "m-1");
    assert.equal(summary.createdAt, "now");
    // A journal of an older hel has no turn stamps: its user messages are counted.
    assert.equal(summary.turns, 2);
    assert.equal(summary.messages, 3);
  });
  await withJournal([
    head,
    {
      type: "checkpoint",
      messages: [checkpointMessage("summary"), { role: "user", content: "after the summary" }],
      retained: 0,
      replaced: 0,
      plugins: {},
    },
    run,
  ], async (dir, id, project) => {
    const summary = await readSummary(dir, id, project);
    assert.equal(summary.firstPrompt, "after the summary");
    assert.equal(summary.model, "m-1");
  });
});

Deno.test("the turns are the last entry's stamp, whatever the conversation holds now", async () => {
  await withJournal([
    head,
    run,
    { type: "message", message: { role: "user", content: "one" } },
  ], async (dir, id, project) => {
    assert.equal((await readSummary(dir, id, project)).turns, 7);
  }, (n) => ({ u: n + 5 }));
});

Deno.test("a journal whose first prompt lies past the scanned start has none to show", async () => {
  await withJournal([
    head,
    run,
    { type: "system", content: "s".repeat(START_SCAN_BYTES) },
    { type: "message", message: { role: "user", content: "too far" } },
  ], async (dir, id, project) => {
    const summary = await readSummary(dir, id, project);
    assert.equal(summary.firstPrompt, undefined);
    assert.equal(summary.model, "m-1");
    assert.equal(summary.messages, 2); // the last entry's n, the system message left out
  });
});
