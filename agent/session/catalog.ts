/**
 * The sessions of a project: checking a session id, listing sessions with their state,
 * finding the most recent one and deleting one. Used by `hel sessions` and `--resume`.
 *
 * @module
 */
import { errorMessage } from "../../core/errors.ts";
import { isSessionBusy, tryLockSession } from "./lock.ts";
import { checkRealDirectory, sessionPaths } from "./store.ts";
import { loadSnapshot, snapshotPath } from "./snapshot.ts";
import { journalPath, readJournalEnds } from "./journal.ts";
import { UsageError } from "../../core/usage_error.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Throws a usage error unless `id` is a session id in its canonical lowercase UUID form.
 * With `flag` (`--resume`), the error also says how to resume with an instruction.
 */
export function checkSessionId(id: string, flag?: string): void {
  if (UUID.test(id)) return;
  if (UUID.test(id.toLowerCase())) {
    throw new UsageError(`session id ${id}: write it in lowercase, as hel printed it`);
  }
  const hint = flag
    ? `; to resume the most recent session with an instruction, write ${flag} -i "<instruction>"`
    : "";
  throw new UsageError(
    `${flag ? `${flag}: ` : ""}invalid session id "${id}" (expected a UUID as printed in ` +
      `"session: <id>"; run hel sessions to list them)${hint}`,
  );
}

/**
 * The folder of session `id`, which must exist as a real directory (not a symlink).
 * Throws a usage error naming the fix otherwise.
 */
export async function existingSessionDir(project: string, id: string): Promise<string> {
  checkSessionId(id);
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
  return dir;
}

/** One row of `hel sessions`. */
export interface SessionSummary {
  id: string;
  busy: boolean;
  /** From the journal's last entry (or an older hel's snapshot); undefined when unreadable. */
  updatedAt?: string;
  messageCount?: number;
  /** Why the journal (or snapshot) could not be read, when it exists but is unusable. */
  problem?: string;
}

/**
 * Checks that `.hel` and `.hel/sessions` are real folders of the project (a symlink is refused
 * with a usage error); false when they do not exist yet.
 */
async function sessionsFolderExists(project: string): Promise<boolean> {
  try {
    await checkRealDirectory(`${project}/.hel`);
    await checkRealDirectory(`${project}/.hel/sessions`);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

async function sessionIds(project: string): Promise<string[]> {
  const ids: string[] = [];
  if (!await sessionsFolderExists(project)) return ids;
  for await (const entry of Deno.readDir(`${project}/.hel/sessions`)) {
    if (entry.isDirectory && UUID.test(entry.name)) ids.push(entry.name);
  }
  return ids;
}

/** Every session of the project, most recently updated first; never-saved ones last. */
export async function listSessions(project: string): Promise<SessionSummary[]> {
  const rows: SessionSummary[] = [];
  for (const id of await sessionIds(project)) {
    const { dir } = sessionPaths(project, id);
    const row: SessionSummary = { id, busy: await isSessionBusy(dir).catch(() => true) };
    try {
      Object.assign(row, await summary(dir, id, project));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) row.problem = errorMessage(error);
    }
    rows.push(row);
  }
  return rows.sort((a, b) =>
    (b.updatedAt ?? "").localeCompare(a.updatedAt ?? "") || a.id.localeCompare(b.id)
  );
}

/**
 * The last update and message count of a session: its journal's last complete entry, read
 * without loading the journal whole; a session of an older hel, its snapshot.
 */
async function summary(dir: string, id: string, project: string) {
  try {
    const ends = await readJournalEnds(dir);
    if (!ends) return {};
    return { updatedAt: ends.tail.t, messageCount: ends.tail.n };
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      throw new Error(`journal.jsonl: ${(error as Error).message}`);
    }
  }
  try {
    const snapshot = await loadSnapshot(dir, id, project);
    return { updatedAt: snapshot.updated_at, messageCount: snapshot.messages.length };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw error;
    throw new Error(`snapshot.json: ${(error as Error).message}`);
  }
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

/** Deletes session `id` with its spill files; refuses a session another process uses. */
export async function deleteSession(project: string, id: string): Promise<void> {
  const dir = await existingSessionDir(project, id);
  const lock = await tryLockSession(dir);
  if (!lock) {
    throw new UsageError(
      `session ${id} is in use by another hel process; delete it after that process ends`,
    );
  }
  try {
    await Deno.remove(dir, { recursive: true });
  } finally {
    lock.release();
  }
}
