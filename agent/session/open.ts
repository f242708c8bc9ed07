/**
 * Opening the session of a run: a new one, a saved one to resume, or a copy of a saved one
 * (`--fork-session`). A saved session's busy lock is taken first, so two hel processes never
 * share a session; then its journal is opened for appending. A new session exists only in
 * memory until the model's first answer, when its folder, record, lock and journal are made.
 *
 * @module
 */
import { findSession, mostRecentSession } from "./catalog.ts";
import { sessionHolder, type SessionLock, tryLockSession } from "./lock.ts";
import {
  createSessionFolder,
  newSessionPaths,
  type SessionPaths,
  sessionPaths,
  sessionsFolderExists,
} from "./store.ts";
import { otherProject, SnapshotError } from "./snapshot.ts";
import { UsageError } from "../../core/usage_error.ts";
import { recordedProject, RECORDS_FOLDER, recordSession } from "./record.ts";
import {
  deferredJournalWriter,
  type JournalWriter,
  openJournalFile,
  openJournalWriter,
} from "./journal_writer.ts";
import { JOURNAL_FILE, journalPath } from "./journal.ts";
import { loadSessionState } from "./load.ts";
import type { SessionState } from "./replay.ts";
import { UnsafePathError } from "../../kit/safe_write.ts";

/** An open session: its paths, its journal and, when resumed, its state. */
export interface OpenSession {
  paths: SessionPaths;
  /**
   * The session's journal. A new session's keeps its entries in memory until {@link save}: its
   * folder, record and lock are made at the first flush after that.
   */
  journal: JournalWriter;
  state: SessionState | undefined;
  /** Things the person should know (a torn last line ignored). */
  warnings: string[];
  /** Keeps the session on disk from the next journal flush on (at the model's first answer). */
  save(): void;
  /** True once the session is kept on disk (a resumed one always is). */
  readonly saved: boolean;
  /** Closes the journal and releases the session's lock. */
  release(): void;
}

/** What to open: a new session, a given one (an id or its start), or (`true`) the most recent. */
export type ResumeChoice = string | true | undefined;

/**
 * Opens the session; every refusal is a usage error that says what to do instead. Only
 * sessions recorded in `helHome` as created by hel are resumed (record.ts). With `fork`, the
 * resumed conversation continues in a new session and the old one is left as it was. A new
 * session (a fork too) is written from its first answer on: a run that never got one leaves none.
 */
export async function openSession(
  project: string,
  resume: ResumeChoice,
  helHome: string,
  fork = false,
): Promise<OpenSession> {
  if (resume === undefined) return await newSession(project, helHome, undefined);
  const chosen = resume === true
    ? await mostRecentSession(project, async (id) => await recordedProject(helHome, id) === project)
    : resume;
  if (chosen === undefined) {
    throw new UsageError(
      "this project has no saved session yet to continue; run hel without --continue or " +
        "--resume to start one",
    );
  }
  const { id, dir } = await findSession(project, chosen);
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
    // Created elsewhere (most often: the project was moved): said as the journal would.
    if (recorded !== project) throw otherProject(recorded, project);
    const loaded = await loadSessionState(dir, id, project);
    if (fork) {
      lock.release();
      return await newSession(project, helHome, { from: id, state: loaded.state });
    }
    if (loaded.legacy) await removeUnfinishedSaves(dir);
    const journal = await openJournalWriter(dir, {
      ...(loaded.sound !== undefined ? { sound: loaded.sound } : {}),
      turns: loaded.state.turns,
    });
    const n = loaded.state.messages.length + 1;
    if (loaded.legacy) addStart(journal, id, project, loaded.state, undefined);
    for (const body of loaded.state.repairs) journal.add(body, n);
    await journal.flush();
    const warnings = loaded.torn ? [`session ${id}: ${journalPath(dir)}: ${loaded.torn}`] : [];
    return {
      paths: sessionPaths(project, id),
      journal,
      state: loaded.state,
      warnings,
      save: () => {},
      saved: true,
      release() {
        journal.close();
        lock.release();
      },
    };
  } catch (error) {
    lock.release();
    throw resumeRefusal(error, id, dir);
  }
}

/**
 * A new session (a fork when `from` is given): its id and journal, kept in memory until it is
 * saved. A symlinked `.hel` or `.hel/sessions` is refused now, before any request.
 */
async function newSession(
  project: string,
  helHome: string,
  from: { from: string; state: SessionState } | undefined,
): Promise<OpenSession> {
  await sessionsFolderExists(project);
  const paths = newSessionPaths(project);
  let lock: SessionLock | undefined;
  const journal = deferredJournalWriter(async () => {
    await createSessionFolder(project, paths);
    await recordSession(helHome, project, paths.id);
    lock = await tryLockSession(paths.dir);
    if (!lock) throw new Error(`could not lock the new session ${paths.id}`);
    try {
      return await openJournalFile(paths.dir);
    } catch (error) {
      lock.release();
      lock = undefined;
      throw error instanceof UnsafePathError ? new UsageError(`session: ${error.message}`) : error;
    }
  }, from?.state.turns ?? 0);
  const state = from?.state;
  if (state) state.repairs = [];
  addStart(journal, paths.id, project, state, from?.from);
  return {
    paths,
    journal,
    state,
    warnings: [],
    save: () => journal.begin(),
    get saved() {
      return journal.begun;
    },
    release() {
      journal.close();
      lock?.release();
    },
  };
}

/** The head of a journal; with `state`, the conversation it starts from (fork, snapshot). */
function addStart(
  journal: JournalWriter,
  id: string,
  project: string,
  state: SessionState | undefined,
  forkedFrom: string | undefined,
): void {
  const createdAt = forkedFrom || !state ? new Date().toISOString() : state.createdAt;
  journal.add({
    type: "session",
    session_id: id,
    project,
    created_at: createdAt,
    ...(forkedFrom ? { forked_from: forkedFrom } : {}),
  }, 1);
  if (!state) return;
  const n = state.messages.length + 1;
  journal.add({
    type: "checkpoint",
    messages: state.messages,
    retained: state.retained,
    replaced: 0,
    plugins: state.plugins,
  }, n);
}

/** A failure to resume, as a usage error that says what to do. */
function resumeRefusal(error: unknown, id: string, dir: string): unknown {
  if (error instanceof Deno.errors.NotFound) {
    return new UsageError(
      `session ${id} has no saved conversation (it never completed a turn); ` +
        "run hel without --resume for a new session",
    );
  }
  if (error instanceof UnsafePathError) {
    return new UsageError(`session ${id} cannot be resumed: ${error.message}`);
  }
  if (error instanceof SnapshotError) {
    const file = (error as SnapshotError & { file?: string }).file ?? JOURNAL_FILE;
    return new UsageError(
      `session ${id} cannot be resumed: ${dir}/${file}${error.damaged ? " is damaged" : ""}: ` +
        `${error.message}. The file was left as it is; start a new session (hel without ` +
        `--resume), or remove this one with hel sessions delete ${id}`,
    );
  }
  return error;
}

/**
 * Removes temporary files of snapshot saves an older hel never finished
 * (`.snapshot-<uuid>.tmp`). Only the lock holder may; a failure leaves them, harmlessly.
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
