/**
 * What `hel sessions` costs as a project's sessions pile up: listing (the table's rows: each
 * session's lock state, the start of its journal up to the first prompt, its last line) and
 * formatting the table, at 10, 100 and 1,000 sessions whose journals hold a turn of ten tool
 * calls (about 30 KB each, one in ten ten times longer). It should grow with the number of
 * sessions only, not with their length.
 *
 * @module
 */
import { JOURNAL_VERSION } from "../agent/session/journal.ts";
import { listSessions } from "../agent/session/catalog.ts";
import { formatSessionList } from "../cli/sessions_command.ts";
import { median, repeat } from "./stats.ts";
import { int, table } from "./table.ts";

/** Figures for one number of sessions (medians). */
export interface SessionsListRow {
  sessions: number;
  /** Listing and formatting the table, ms. */
  listMs: number;
  /** The same per session, µs. */
  perSessionUs: number;
  /** The journals' total size, MB. */
  journalsMB: number;
}

/** The journal of a session: a turn of `calls` tool calls with results of `resultChars`. */
function journal(id: string, project: string, calls: number, resultChars: number): string {
  let n = 1;
  let u = 0;
  const t = new Date().toISOString();
  const lines: object[] = [];
  const add = (body: object, messages = n) =>
    lines.push({ v: JOURNAL_VERSION, t, n: messages, u, ...body });
  add({ type: "session", session_id: id, project, created_at: t });
  add({ type: "run", settings: { model: "deepseek-flash", tools: ["read_file", "bash"] } });
  add({ type: "system", content: "You are hel. ".repeat(300) }, ++n);
  u++;
  add({ type: "message", message: { role: "user", content: `task ${id}: fix the build` } }, ++n);
  for (let call = 0; call < calls; call++) {
    const tool_calls = [{
      id: `c${call}`,
      type: "function",
      function: { name: "bash", arguments: "{}" },
    }];
    add({ type: "message", message: { role: "assistant", content: null, tool_calls } }, ++n);
    add({
      type: "message",
      message: { role: "tool", tool_call_id: `c${call}`, content: "x".repeat(resultChars) },
    }, ++n);
  }
  add({ type: "message", message: { role: "assistant", content: "done" } }, ++n);
  add({ type: "turn_end", termination: "completed" });
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

async function measure(count: number, runs: number): Promise<SessionsListRow> {
  const project = await Deno.makeTempDir({ prefix: "hel-bench-sessions-" });
  try {
    let bytes = 0;
    for (let index = 0; index < count; index++) {
      const id = crypto.randomUUID();
      const dir = `${project}/.hel/sessions/${id}`;
      await Deno.mkdir(dir, { recursive: true });
      const text = journal(id, project, 10, index % 10 === 9 ? 25_000 : 2_500);
      bytes += text.length;
      await Deno.writeTextFile(`${dir}/journal.jsonl`, text);
    }
    const listMs = median(
      await repeat(runs, async () => {
        const start = performance.now();
        const table = await formatSessionList(await listSessions(project), 120);
        if (table.split("\n").length !== count + 2) throw new Error("bench: a session is missing");
        return performance.now() - start;
      }),
    );
    return {
      sessions: count,
      listMs,
      perSessionUs: listMs * 1000 / count,
      journalsMB: bytes / 1e6,
    };
  } finally {
    await Deno.remove(project, { recursive: true });
  }
}

/** The figures at 10, 100 and 1,000 sessions (or `sizes`). */
export async function sessionsList(
  runs: number,
  sizes: readonly number[] = [10, 100, 1_000],
): Promise<SessionsListRow[]> {
  const rows: SessionsListRow[] = [];
  for (const size of sizes) rows.push(await measure(size, runs));
  return rows;
}

/** The report section. */
export function formatSessionsList(rows: readonly SessionsListRow[]): string[] {
  return [
    "## hel sessions",
    "Listing a project's sessions and formatting the table (`listSessions` and the table, in " +
    "process). Each journal holds a turn of ten tool calls, about 30 KB, one in ten about 250 KB.",
    table(
      ["sessions", "journals (MB)", "list (ms)", "per session (µs)"],
      rows.map((row) => [
        int(row.sessions),
        row.journalsMB.toFixed(1),
        row.listMs.toFixed(1),
        row.perSessionUs.toFixed(0),
      ]),
    ),
  ];
}

if (import.meta.main) {
  console.log(formatSessionsList(await sessionsList(Number(Deno.args[0] ?? 5))).join("\n\n"));
}
