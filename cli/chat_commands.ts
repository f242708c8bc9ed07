/**
 * Slash commands of the interactive chat besides `/exit`: `/compact` compacts the
 * conversation now, whatever its size.
 *
 * @module
 */
import type { Interrupts } from "./chat.ts";
import type { Run } from "../agent/run.ts";
import { writeErr } from "../kit/output.ts";

/** The commands, by the exact line that invokes them. */
export function chatCommands(interrupts: Interrupts): Record<string, (run: Run) => Promise<void>> {
  return {
    "/compact": async (run) => {
      try {
        const changed = await run.compact(interrupts.next());
        if (!changed) writeErr("hel: the conversation was not compacted\n");
      } finally {
        interrupts.idle();
      }
    },
  };
}
