/**
 * A run's side of its session: giving plugins back their saved state on resume, and saving
 * the snapshot after each turn (a failed save is a warning; the conversation goes on in memory
 * and the next turn tries again).
 *
 * @module
 */
import type { Logger, Plugin } from "../core/plugin.ts";
import type { SessionPaths } from "./session/store.ts";
import { saveSnapshot, type Snapshot, SNAPSHOT_SCHEMA_VERSION } from "./session/snapshot.ts";
import type { ChatMessage } from "../core/types.ts";

/** Hands each plugin the state it saved; a plugin that fails starts afresh, with a warning. */
export function restorePluginStates(
  plugins: readonly Plugin[],
  saved: Record<string, unknown>,
  log: Logger,
): void {
  for (const plugin of plugins) {
    if (!plugin.restoreState || !Object.hasOwn(saved, plugin.name)) continue;
    try {
      plugin.restoreState(saved[plugin.name]);
    } catch (error) {
      log.warn(
        `plugin ${plugin.name} could not restore its saved state (${
          (error as Error).message
        }); it starts afresh`,
      );
    }
  }
}

function pluginStates(plugins: readonly Plugin[], log: Logger): Record<string, unknown> {
  const states: Record<string, unknown> = {};
  for (const plugin of plugins) {
    if (!plugin.saveState) continue;
    try {
      const state = plugin.saveState();
      // Only JSON survives a snapshot; a round trip keeps what will really be restored.
      if (state !== undefined) states[plugin.name] = JSON.parse(JSON.stringify(state));
    } catch (error) {
      log.warn(`plugin ${plugin.name} could not save its state: ${(error as Error).message}`);
    }
  }
  return states;
}

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
  plugins: readonly Plugin[];
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
    plugins: pluginStates(source.plugins, source.log),
  };
  try {
    await saveSnapshot(source.session.dir, snapshot);
    return true;
  } catch (error) {
    source.log.warn(
      `session ${source.session.id} was not saved: ${(error as Error).message}. ` +
        "The conversation goes on in memory; --resume returns to the last successful save.",
    );
    return false;
  }
}
