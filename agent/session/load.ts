/**
 * Loading a saved session: its journal (from its last checkpoint on), or, for a session saved by an older hel, its
 * `snapshot.json` (read once; the resumed run continues it as a journal).
 *
 * @module
 */
import { readJournalForResume } from "./journal.ts";
import { personTurns, replayJournal, type SessionState } from "./replay.ts";
import { loadSnapshot, SnapshotError } from "./snapshot.ts";

/** A loaded session and where it came from. */
export interface LoadedSession {
  state: SessionState;
  /** True when it came from `snapshot.json` (there is no journal yet). */
  legacy: boolean;
  /** Bytes of the journal's complete lines. */
  sound?: number;
  /** Why the journal's last line was ignored, when it was torn. */
  torn?: string;
}

/** A {@link SnapshotError} that names the file at fault. */
function inFile(error: unknown, file: string): unknown {
  if (error instanceof SnapshotError) Object.assign(error, { file });
  return error;
}

/**
 * Loads session `id` of `project` from its folder; throws `NotFound` when it has neither a
 * journal nor a snapshot, and {@link SnapshotError} (with `file`) when the one it has is unusable.
 * Nothing is changed on disk.
 */
export async function loadSessionState(
  dir: string,
  id: string,
  project: string,
): Promise<LoadedSession> {
  let read;
  try {
    read = await readJournalForResume(dir);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw inFile(error, "journal.jsonl");
  }
  // Created but never written (killed at once): as if there were none.
  if (read?.entries.length === 0) read = undefined;
  if (read) {
    try {
      const state = replayJournal(read.entries, id, project);
      return { state, legacy: false, sound: read.sound, ...(read.torn ? { torn: read.torn } : {}) };
    } catch (error) {
      throw inFile(error, "journal.jsonl");
    }
  }
  try {
    const snapshot = await loadSnapshot(dir, id, project);
    const messages = snapshot.messages.filter((m) => m.role !== "system");
    const state: SessionState = {
      createdAt: snapshot.created_at,
      messages,
      retained: snapshot.retained_messages,
      plugins: snapshot.plugins,
      repairs: [],
      turns: personTurns([], messages),
    };
    return { state, legacy: true };
  } catch (error) {
    throw inFile(error, "snapshot.json");
  }
}
