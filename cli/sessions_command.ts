/**
 * `hel sessions` lists this project's sessions (id, idle or busy, last update, message
 * count); `hel sessions delete <id>` removes one with its spill files. Neither needs an API
 * key or calls a model.
 *
 * @module
 */
import { deleteSession, listSessions, type SessionSummary } from "../agent/session/catalog.ts";

/** One line per session, tab-separated; a note when there is none. */
export function formatSessionList(rows: readonly SessionSummary[]): string {
  if (rows.length === 0) return "No sessions in this project.\n";
  return rows.map((row) => {
    const state = row.busy ? "busy" : "idle";
    const detail = row.messageCount !== undefined
      ? `${row.updatedAt}\t${row.messageCount} messages`
      : row.problem
      ? `-\tunreadable: ${row.problem}`
      : "-\tno saved conversation";
    return `${row.id}\t${state}\t${detail}`;
  }).join("\n") + "\n";
}

/** The listing of the project's sessions. */
export async function sessionsList(project: string): Promise<string> {
  return formatSessionList(await listSessions(project));
}

/** Deletes a session and returns the confirmation line; refusals throw usage errors. */
export async function sessionsDelete(project: string, id: string): Promise<string> {
  await deleteSession(project, id);
  return `Deleted session ${id}.\n`;
}
