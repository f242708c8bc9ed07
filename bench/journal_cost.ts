/**
 * What the session journal costs (agent/session/): appending one entry (queued, then written
 * to the open journal, as a run does after each message and tool result) in journals that
 * already hold 10, 1,000 and 100,000 entries; reading the head and tail for `hel sessions`;
 * and reading the whole journal for `--resume` (which replays it). Appending and listing
 * should not grow with the journal; resuming does.
 *
 * @module
 */
import {
  JOURNAL_VERSION,
  journalPath,
  readJournal,
  readJournalEnds,
} from "../agent/session/journal.ts";
import { openJournalWriter } from "../agent/session/journal_writer.ts";
import { median, repeat } from "./stats.ts";
import { int, table } from "./table.ts";

/** Figures for one journal size (medians). */
export interface JournalCostRow {
  entries: number;
  /** One append (add + flush to the file), µs. */
  appendUs: number;
  /** Reading the first and last entries (`hel sessions`), ms. */
  endsMs: number;
  /** Reading and parsing the whole journal (`--resume`), ms. */
  readAllMs: number;
}

/** A message entry of about 300 bytes, like a short tool result. */
function entryLine(n: number): string {
  const message = { role: "tool", tool_call_id: `call_${n}`, content: "x".repeat(200) };
  return JSON.stringify({
    v: JOURNAL_VERSION,
    t: new Date().toISOString(),
    n,
    type: "message",
    message,
  });
}

async function measure(entries: number, appends: number, runs: number): Promise<JournalCostRow> {
  const dir = await Deno.makeTempDir({ prefix: "hel-bench-journal-" });
  try {
    const head = JSON.stringify({
      v: JOURNAL_VERSION,
      t: new Date().toISOString(),
      n: 1,
      type: "session",
      session_id: "bench",
      project: dir,
      created_at: new Date().toISOString(),
    });
    const lines = [head, ...Array.from({ length: entries - 1 }, (_, n) => entryLine(n + 2))];
    await Deno.writeTextFile(journalPath(dir), lines.join("\n") + "\n", { mode: 0o600 });
    const writer = await openJournalWriter(dir);
    const body = JSON.parse(entryLine(0));
    const appendUs = median(
      await repeat(runs, async () => {
        const start = performance.now();
        for (let i = 0; i < appends; i++) {
          writer.add({ type: "message", message: body.message }, entries + i);
          await writer.flush();
        }
        return (performance.now() - start) * 1000 / appends;
      }),
    );
    writer.close();
    const endsMs = median(
      await repeat(runs, async () => {
        const start = performance.now();
        await readJournalEnds(dir);
        return performance.now() - start;
      }),
    );
    const readAllMs = median(
      await repeat(Math.min(runs, 3), async () => {
        const start = performance.now();
        await readJournal(dir);
        return performance.now() - start;
      }),
    );
    return { entries, appendUs, endsMs, readAllMs };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The figures at 10, 1,000 and 100,000 entries (or `sizes`). */
export async function journalCost(
  runs: number,
  sizes: readonly number[] = [10, 1_000, 100_000],
): Promise<JournalCostRow[]> {
  const rows: JournalCostRow[] = [];
  for (const size of sizes) rows.push(await measure(size, 200, runs));
  return rows;
}

/** The report section. */
export function formatJournalCost(rows: readonly JournalCostRow[]): string[] {
  return [
    "## Session journal",
    "Entries of about 300 bytes. An append is one entry queued and written to the open " +
    "journal (what a run does after each message and tool result; medians of 200 appends). " +
    "`hel sessions` reads the first and last entries; `--resume` reads the whole journal.",
    table(
      ["entries", "append (µs)", "head and tail (ms)", "whole journal (ms)"],
      rows.map((row) => [
        int(row.entries),
        row.appendUs.toFixed(1),
        row.endsMs.toFixed(2),
        row.readAllMs.toFixed(1),
      ]),
    ),
  ];
}

if (import.meta.main) {
  console.log(formatJournalCost(await journalCost(Number(Deno.args[0] ?? 5))).join("\n\n"));
}
