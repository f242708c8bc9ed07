/**
 * `hel sessions prune`: removing the project's sessions not written for a while, each under its
 * lock (a session another hel uses is kept), with hel's record of it.
 *
 * @module
 */
import { listSessions, removeSessionFolder, type SessionSummary } from "./catalog.ts";
import { sessionPaths } from "./store.ts";

/** What a prune did, or (`dryRun`) would do. */
export interface PruneResult {
  /** The sessions removed (or that would be), most recent first. */
  removed: SessionSummary[];
  /** Old enough, but in use by another hel process: kept. */
  inUse: SessionSummary[];
}

/** When the session was last written: its last journal entry, else its folder's change. */
async function lastWritten(project: string, row: SessionSummary): Promise<number | undefined> {
  const time = row.updatedAt === undefined ? Number.NaN : Date.parse(row.updatedAt);
  if (!Number.isNaN(time)) return time;
  try {
    return (await Deno.lstat(sessionPaths(project, row.id).dir)).mtime?.getTime();
  } catch {
    return undefined;
  }
}

/**
 * Removes (unless `dryRun`) every session of `project` last written more than `olderThanMs`
 * before `now`, unreadable ones included; sessions in use are kept and reported.
 */
export async function pruneSessions(
  project: string,
  helHome: string,
  olderThanMs: number,
  options: { dryRun?: boolean; now?: number } = {},
): Promise<PruneResult> {
  const now = options.now ?? Date.now();
  const result: PruneResult = { removed: [], inUse: [] };
  for (const row of await listSessions(project)) {
    const written = await lastWritten(project, row);
    if (written === undefined || now - written <= olderThanMs) continue;
    if (row.busy) {
      result.inUse.push(row);
    } else if (options.dryRun) {
      result.removed.push(row);
    } else if (await removeSessionFolder(project, row.id, helHome)) {
      result.removed.push(row);
    } else {
      result.inUse.push(row);
    }
  }
  return result;
}
