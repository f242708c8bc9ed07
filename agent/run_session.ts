/**
 * A run's side of its session: giving plugins back their saved state on resume, and the
 * closing note of a turn that ended without an answer. What the run journals is recorder.ts.
 *
 * @module
 */
import type { Logger, Plugin } from "../core/plugin.ts";
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

/**
 * Each plugin's `saveState()` result, by name, as JSON keeps it. A plugin that fails is told
 * to `warn` and left out.
 */
export function pluginStates(
  plugins: readonly Plugin[],
  warn: (text: string, plugin: string) => void,
): Record<string, unknown> {
  const states: Record<string, unknown> = {};
  for (const plugin of plugins) {
    if (!plugin.saveState) continue;
    try {
      const state = plugin.saveState();
      // Only JSON survives a snapshot; a round trip keeps what will really be restored.
      if (state !== undefined) states[plugin.name] = JSON.parse(JSON.stringify(state));
    } catch (error) {
      warn(
        `plugin ${plugin.name} could not save its state: ${(error as Error).message}`,
        plugin.name,
      );
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
