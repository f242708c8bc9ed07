/**
 * A run's side of its session: the note closing a turn that ended without an answer. What the
 * run journals is recorder.ts.
 *
 * @module
 */
import type { LoopOutcome } from "../core/loop.ts";
import type { ChatMessage } from "../core/types.ts";

/**
 * What the conversation records when the person interrupted a turn (Esc, Ctrl-C): the model
 * reads it on the next turn, and a resumed session shows it.
 */
const INTERRUPTED_NOTE = "[interrupted by the person]";

/**
 * The message that closes a turn which ended without an answer (the call limit, a stop, a
 * failing model API, an interrupt), so the turn can be saved: its calls ran and may have changed
 * files, and a resumed conversation must know that. Undefined when the conversation already
 * ends with an answer (one cut off at the output limit).
 */
export function closingNote(
  messages: readonly ChatMessage[],
  outcome: Pick<LoopOutcome, "termination" | "error">,
): ChatMessage | undefined {
  const last = messages.at(-1);
  if (last?.role === "assistant" && !last.tool_calls?.length) return undefined;
  if (outcome.termination === "interrupted") {
    return { role: "assistant", content: INTERRUPTED_NOTE };
  }
  return {
    role: "assistant",
    content: `[hel] This turn ended without an answer (${
      outcome.error ?? outcome.termination
    }); the tool calls and results above are what happened before it ended.`,
  };
}
