/**
 * The sessions of a project: finding one by its id (or the start of it), listing them with
 * their state, finding the most recent one and deleting one. Used by `hel sessions`,
 * `--resume` and `--continue`.
 *
 * @module
 */
import { errorMessage } from "../../core/errors.ts";
import { isSessionBusy, tryLockSession } from "./lock.ts";
import { sessionIds, sessionPaths, sessionsFolderExists } from "./store.ts";
import { snapshotPath } from "./snapshot.ts";
import { journalPath } from "./journal.ts";
import { UsageError } from "../../core/usage_error.ts";
import { resolveSessionId } from "./session_id.ts";
import { type ConversationSummary, readSummary } from "./summary.ts";
import { forgetSession } from "./record.ts";

/** A session of the project found by its id: the whole id and its folder. */
export interface FoundSession {
  id: string;
  dir: string;
}

/**
 * The session `given` names (its id, or the start of it: session_id.ts), whose folder must
 * exist as a real directory (not a symlink). Throws a usage error naming the fix otherwise.
 */
export async function findSession(project: string, given: string): Promise<FoundSession> {
  const id = await resolveSessionId(project, given);
  const { dir } = sessionPaths(project, id);
  let info: Deno.FileInfo | undefined;
  try {
    if (await sessionsFolderExists(project)) info = await Deno.lstat(dir);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (!info) {
    throw new UsageError(`no session ${id} in this project (run hel sessions to list them)`);
  }
  if (!info.isDirectory) {
    throw new UsageError(`${dir} must be a real directory (found a symlink or file)`);
  }
  return { id, dir };
}

/** One row of `hel sessions`. */
export interface SessionSummary extends ConversationSummary {
  id: string;
  busy: boolean;
  /** Why the journal (or snapshot) could not be read, when it exists but is unusable. */
  problem?: string;
}

/** Sessions summarised at once: enough to overlap the reads, few enough to bound open files. */
const AT_ONCE = 16;

/** Every session of the project, most recently updated first; never-saved ones last. */
export async function listSessions(project: string): Promise<SessionSummary[]> {
  const ids = await sessionIds(project);
  const rows: SessionSummary[] = [];
  for (let at = 0; at < ids.length; at += AT_ONCE) {
    rows.push(...await Promise.all(ids.slice(at, at + AT_ONCE).map((id) => row(project, id))));
  }
  return rows.sort((a, b) =>
    (b.updatedAt ?? "").localeCompare(a.updatedAt ?? "") || a.id.localeCompare(b.id)
  );
}

async function row(project: string, id: string): Promise<SessionSummary> {
  const { dir } = sessionPaths(project, id);
  const found: SessionSummary = { id, busy: await isSessionBusy(dir).catch(() => true) };
  try {
    Object.assign(found, await readSummary(dir, id, project));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) found.problem = errorMessage(error);
  }
  return found;
}

/**
 * The id of the session whose journal (or snapshot) was written last, among those `accept` takes (all by
 * default), or undefined when none has one.
 */
export async function mostRecentSession(
  project: string,
  accept: (id: string) => Promise<boolean> = () => Promise.resolve(true),
): Promise<string | undefined> {
  let best: { id: string; time: number } | undefined;
  for (const id of await sessionIds(project)) {
    if (!await accept(id)) continue;
    const dir = sessionPaths(project, id).dir;
    for (const path of [journalPath(dir), snapshotPath(dir)]) {
      try {
        const time = (await Deno.lstat(path)).mtime?.getTime() ?? 0;
        if (!best || time > best.time) best = { id, time };
        break;
      } catch { /* not this one */ }
    }
  }
  return best?.id;
}

/**
 * Deletes the session `given` names with its spill files, and hel's record of it; refuses a
 * session another process uses. Returns its whole id.
 */
export async function deleteSession(
  project: string,
  given: string,
  helHome: string,
): Promise<string> {
  const { id } = await findSession(project, given);
  if (!await removeSessionFolder(project, id, helHome)) {
    throw new UsageError(
      `session ${id} is in use by another hel process; delete it after that process ends`,
    );
  }
  return id;
}

/**
 * Removes a session's folder under its lock, then hel's record of it when the record is of
 * this project (a forged folder under another project's session id leaves that record alone).
 * False, and nothing removed, when another process holds the session.
 */
export async function removeSessionFolder(
  project: string,
  id: string,
  helHome: string,
): Promise<boolean> {
  const { dir } = sessionPaths(project, id);
  const lock = await tryLockSession(dir);
  if (!lock) return false;
  try {
    await Deno.remove(dir, { recursive: true });
  } finally {
    lock.release();
  }
  await forgetSession(helHome, project, id);
  return true;
}
