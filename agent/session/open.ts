/**
 * Opening the session of a run: a new one, or a saved one to resume. Either way the session's
 * busy lock is taken first, so two hel processes never share a session.
 *
 * @module
 */
import { existingSessionDir, mostRecentSession } from "./catalog.ts";
import { sessionHolder, type SessionLock, tryLockSession } from "./lock.ts";
import { createSession, type SessionPaths, sessionPaths } from "./store.ts";
import {
  loadSnapshot,
  otherProject,
  type Snapshot,
  SnapshotError,
  snapshotPath,
} from "./snapshot.ts";
import { UsageError } from "../../core/usage_error.ts";
import { recordedProject, RECORDS_FOLDER, recordSession } from "./record.ts";

/** An open session: its paths, its held lock and, when resumed, its saved snapshot. */
export interface OpenSession {
  paths: SessionPaths;
  lock: SessionLock;
  snapshot: Snapshot | undefined;
}

/** What to open: a new session, a given one, or (`true`) the most recent of the project. */
export type ResumeChoice = string | true | undefined;

/**
 * Opens the session; every refusal is a usage error that says what to do instead. Only
 * sessions recorded in `helHome` as created by hel are resumed (session_record.ts).
 */
export async function openSession(
  project: string,
  resume: ResumeChoice,
  helHome: string,
): Promise<OpenSession> {
  if (resume === undefined) {
    const paths = await createSession(project);
    await recordSession(helHome, project, paths.id);
    const lock = await tryLockSession(paths.dir);
    if (!lock) throw new Error(`could not lock the new session ${paths.id}`);
    return { paths, lock, snapshot: undefined };
  }
  const id = resume === true
    ? await mostRecentSession(project, async (id) => await recordedProject(helHome, id) === project)
    : resume;
  if (id === undefined) {
    throw new UsageError(
      "--resume: this project has no saved session yet; run hel without --resume to start one",
    );
  }
  const dir = await existingSessionDir(project, id);
  const recorded = await recordedProject(helHome, id);
  if (recorded === undefined) {
    throw new UsageError(
      `session ${id} cannot be resumed: hel did not create it (${helHome}/${RECORDS_FOLDER} ` +
        "has no record of it), so a program or a cloned repository may have written it, and " +
        "hel does not load it. Start a new session (hel without --resume), or remove this " +
        `one with hel sessions delete ${id}`,
    );
  }
  const lock = await tryLockSession(dir);
  if (!lock) {
    const pid = await sessionHolder(dir);
    throw new UsageError(
      `session ${id} is already in use by another hel process${pid ? ` (pid ${pid})` : ""}; ` +
        "wait for it to end, or run hel without --resume for a new session",
    );
  }
  try {
    // Created elsewhere (most often: the project was moved): said as the snapshot would.
    if (recorded !== project) throw otherProject(recorded, project);
    const snapshot = await loadSnapshot(dir, id, project);
    await removeUnfinishedSaves(dir);
    return { paths: sessionPaths(project, id), lock, snapshot };
  } catch (error) {
    lock.release();
    if (error instanceof Deno.errors.NotFound) {
      throw new UsageError(
        `session ${id} has no saved conversation (it never completed a turn); ` +
          "run hel without --resume for a new session",
      );
    }
    if (error instanceof SnapshotError) {
      throw new UsageError(
        `session ${id} cannot be resumed: ${snapshotPath(dir)}${
          error.damaged ? " is damaged" : ""
        }: ${error.message}. ` +
          "The file was left as it is; start a new session (hel without --resume), or remove " +
          `this one with hel sessions delete ${id}`,
      );
    }
    throw error;
  }
}

/**
 * Removes temporary files of saves a killed hel never finished (`.snapshot-<uuid>.tmp`). Only
 * the lock holder may, so no save in progress is touched; a failure leaves them, harmlessly.
 */
async function removeUnfinishedSaves(dir: string): Promise<void> {
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && /^\.snapshot-[0-9a-f-]+\.tmp$/.test(entry.name)) {
        await Deno.remove(`${dir}/${entry.name}`).catch(() => {});
      }
    }
  } catch { /* they are never read; leaving them is safe */ }
}
