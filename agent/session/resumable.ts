/**
 * The sessions the chat's `/resume` and the `--resume` picker offer: this project's sessions
 * that hel recorded creating (the rule `--resume` follows), that no hel uses now and that hold
 * a conversation, each summarised as `hel sessions` shows it (summary.ts).
 *
 * @module
 */
import { listSessions, type SessionSummary } from "./catalog.ts";
import { recordedProject } from "./record.ts";

/** A saved session that can be resumed. */
export type ResumableSession = SessionSummary & {
  /** ISO 8601 time of its last journal entry. */
  updatedAt: string;
  /** Messages of its conversation, the system message left out. */
  messages: number;
};

/**
 * This project's sessions that can be resumed, most recently updated first, leaving out
 * `exclude` (the session the chat is in), busy ones, unreadable ones and ones without a message.
 */
export async function resumableSessions(
  project: string,
  helHome: string,
  exclude?: string,
): Promise<ResumableSession[]> {
  const found: ResumableSession[] = [];
  for (const row of await listSessions(project)) {
    if (row.id === exclude || row.busy || row.problem !== undefined) continue;
    if (row.updatedAt === undefined || (row.messages ?? 0) < 1) continue;
    if (await recordedProject(helHome, row.id) !== project) continue;
    found.push(row as ResumableSession);
  }
  return found;
}
