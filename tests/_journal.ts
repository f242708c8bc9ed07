/**
 * Test helpers for session journals: what a session saved (read as `--resume` reads it), and
 * turning a session into one an older hel saved (`snapshot.json`, no journal).
 */
import { parseJournal } from "../agent/session/journal.ts";
import { replayJournal } from "../agent/session/replay.ts";
import type { SessionSummary } from "../agent/session/catalog.ts";
import { runHelInProcess } from "./_run.ts";

/** The session folder of `id` in `project`. */
export const sessionDir = (project: string, id: string) => `${project}/.hel/sessions/${id}`;

/** The journal's entries, parsed line by line. */
export async function journalEntries(project: string, id: string) {
  const text = await Deno.readTextFile(`${sessionDir(project, id)}/journal.jsonl`);
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

/** What the session saved: its conversation (no system message), plugin state, retained count. */
export async function savedSession(project: string, id: string) {
  const text = await Deno.readTextFile(`${sessionDir(project, id)}/journal.jsonl`);
  return replayJournal(parseJournal(text).entries, id, project);
}

/** Makes session `id` look last written `hours` ago: its journal's times and its mtime. */
export async function ageSession(project: string, id: string, hours: number): Promise<void> {
  const when = new Date(Date.now() - hours * 3_600_000);
  const path = `${sessionDir(project, id)}/journal.jsonl`;
  const text = await Deno.readTextFile(path);
  // Every time has the same length, so a hel holding the journal open appends where it was.
  await Deno.writeTextFile(path, text.replace(/"t":"[^"]+"/g, `"t":"${when.toISOString()}"`));
  await Deno.utime(path, when, when);
}

/** The row of session `id` in `hel sessions --json`, as a script reads it (undefined: none). */
export async function listedSession(
  project: string,
  id: string,
): Promise<SessionSummary | undefined> {
  const listed = await runHelInProcess(["sessions", "--json"], { cwd: project });
  if (listed.code !== 0) throw new Error(`hel sessions --json: ${listed.stderr}`);
  return (JSON.parse(listed.stdout) as SessionSummary[]).find((row) => row.id === id);
}

/**
 * Rewrites session `id` as an older hel saved it: `snapshot.json` (schema version 1) with the
 * journal's conversation, and no journal. Returns the snapshot's path.
 */
export async function asSnapshotSession(project: string, id: string): Promise<string> {
  const saved = await savedSession(project, id);
  const path = `${sessionDir(project, id)}/snapshot.json`;
  const snapshot = {
    schema_version: 1,
    session_id: id,
    project,
    created_at: saved.createdAt,
    updated_at: new Date().toISOString(),
    messages: [{ role: "system", content: "You are hel." }, ...saved.messages],
    retained_messages: saved.retained,
    plugins: saved.plugins,
  };
  await Deno.writeTextFile(path, JSON.stringify(snapshot, null, 2) + "\n", { mode: 0o600 });
  await Deno.remove(`${sessionDir(project, id)}/journal.jsonl`);
  return path;
}
