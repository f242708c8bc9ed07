/** The first prompt of a saved session, as `/resume` labels it. */
import assert from "node:assert/strict";
import { checkpointMessage } from "../compaction/plan.ts";
import type { EntryBody } from "./journal.ts";
import { FIRST_PROMPT_SCAN_BYTES, readFirstPrompt } from "./resumable.ts";

async function withJournal(
  bodies: EntryBody[],
  check: (project: string, id: string) => Promise<void>,
) {
  const project = await Deno.makeTempDir({ prefix: "hel-first-" });
  const id = crypto.randomUUID();
  const dir = `${project}/.hel/sessions/${id}`;
  await Deno.mkdir(dir, { recursive: true });
  const lines = bodies.map((body, n) =>
    JSON.stringify({ v: 1, t: "2026-01-01T00:00:00Z", n, ...body })
  );
  await Deno.writeTextFile(`${dir}/journal.jsonl`, lines.join("\n") + "\n");
  try {
    await check(project, id);
  } finally {
    await Deno.remove(project, { recursive: true });
  }
}

const head: EntryBody = { type: "session", session_id: "x", project: "/p", created_at: "now" };

Deno.test("the first prompt is the first user message, a fork's is in its checkpoint, never a summary", async () => {
  await withJournal([
    head,
    { type: "system", content: "system" },
    { type: "message", message: { role: "user", content: "fix the build" } },
    { type: "message", message: { role: "user", content: "later" } },
  ], async (project, id) => assert.equal(await readFirstPrompt(project, id), "fix the build"));
  await withJournal([
    head,
    {
      type: "checkpoint",
      messages: [checkpointMessage("summary"), { role: "user", content: "after the summary" }],
      retained: 0,
      replaced: 0,
      plugins: {},
    },
  ], async (project, id) => assert.equal(await readFirstPrompt(project, id), "after the summary"));
});

Deno.test("a journal whose first prompt lies past the scanned start has none to show", async () => {
  await withJournal([
    head,
    { type: "system", content: "s".repeat(FIRST_PROMPT_SCAN_BYTES) },
    { type: "message", message: { role: "user", content: "too far" } },
  ], async (project, id) => assert.equal(await readFirstPrompt(project, id), undefined));
});
