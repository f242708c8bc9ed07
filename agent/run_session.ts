/**
 * A run's side of its session: saving the snapshot after each turn (a failed save is a warning; the conversation goes on in memory
 * and the next turn tries again).
 *
 * @module
 */
import type { Logger } from "../core/plugin.ts";
import { errorMessage } from "../core/errors.ts";
import type { SessionPaths } from "./session/store.ts";
import { saveSnapshot, type Snapshot, SNAPSHOT_SCHEMA_VERSION } from "./session/snapshot.ts";
import type { ChatMessage } from "../core/types.ts";

/**
 * The message that closes a turn which ended without an answer (the call limit, a stop, a
 * failing model API, an interrupt), so the turn can be saved: its calls ran and may have changed
 * files, and a resumed conversation must know that. Undefined when the conversation already
 * ends with an answer (one cut off at the output limit).
 */
export function closingNote(
  messages: readonly ChatMessage[],
  why: string,
): ChatMessage | undefined {
  const last = messages.at(-1);
  if (last?.role === "assistant" && !last.tool_calls?.length) return undefined;
  return {
    role: "assistant",
    content: `[hel] This turn ended without an answer (${why}); the tool calls and results ` +
      "above are what happened before it ended.",
  };
}

/** What a save needs to know about the run. */
export interface SnapshotSource {
  session: SessionPaths;
  project: string;
  createdAt: string;
  messages: readonly ChatMessage[];
  retained: number;
  /** The plugins' saved states, by plugin name (the plugin driver's `saveStates`). */
  plugins: Record<string, unknown>;
  log: Logger;
}

/** Saves the snapshot; returns false (after a warning) when it could not. Never throws. */
export async function saveRunSnapshot(source: SnapshotSource): Promise<boolean> {
  const snapshot: Snapshot = {
    schema_version: SNAPSHOT_SCHEMA_VERSION,
    session_id: source.session.id,
    project: source.project,
    created_at: source.createdAt,
    updated_at: new Date().toISOString(),
    messages: [...source.messages],
    retained_messages: source.retained,
    plugins: source.plugins,
  };
  try {
    await saveSnapshot(source.session.dir, snapshot);
    return true;
  } catch (error) {
    source.log.warn(
      `session ${source.session.id} was not saved: ${errorMessage(error)}. ` +
        "The conversation goes on in memory; --resume returns to the last successful save.",
    );
    return false;
  }
}
