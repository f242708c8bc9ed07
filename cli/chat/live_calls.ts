/**
 * The tool calls running now, as the chat's live area shows them: added when a call starts,
 * their output gathered as it streams (neutralised, bounded), and each turned into its
 * transcript state when it ends.
 *
 * @module
 */
import type { ToolCallEvent, ToolOutputEvent, ToolStartEvent } from "../../core/events.ts";
import { escapeControlCharacters, neutralise } from "../../core/neutralise.ts";
import { callSummary } from "./call_summary.ts";
import type { ToolActivityState } from "./tool_activity.tsx";

/** At most this much of one call's output is kept for display (the model gets all of it). */
export const OUTPUT_KEPT = 100_000;

/** See the module comment. */
export class LiveCalls {
  #calls: ToolActivityState[] = [];

  /** The calls running now, in the order they started (a copy). */
  list(): ToolActivityState[] {
    return this.#calls.map((call) => ({ ...call }));
  }

  /** A call started. */
  start(event: ToolStartEvent): void {
    this.#calls.push({
      callId: event.callId,
      name: escapeControlCharacters(event.name),
      summary: callSummary(event.name, event.args),
      status: "running",
      output: "",
    });
  }

  /** A piece of a running call's output; false when nothing changed. */
  output(event: ToolOutputEvent): boolean {
    const call = this.#calls.find((c) => c.callId === event.callId);
    if (!call || call.output.length >= OUTPUT_KEPT) return false;
    call.output = (call.output + neutralise(event.text)).slice(0, OUTPUT_KEPT);
    return true;
  }

  /** A call ended (or was refused before it ran): its state for the transcript. */
  end(event: ToolCallEvent): ToolActivityState {
    this.#calls = this.#calls.filter((c) => c.callId !== event.callId);
    return {
      callId: event.callId,
      name: escapeControlCharacters(event.name),
      summary: callSummary(event.name, event.args),
      status: event.status,
      // A declined call did not run: its refusal text is the model's business, not output.
      output: event.status === "declined" ? "" : neutralise(event.text).slice(0, OUTPUT_KEPT),
    };
  }

  /** The calls a turn left running when it ended, marked failed, and none left. */
  abandon(): ToolActivityState[] {
    const left = this.#calls.map((call) => ({ ...call, status: "failed" as const }));
    this.#calls = [];
    return left;
  }
}
