/**
 * The result object: what `--output-format json` prints alone and `stream-json` prints last.
 * Claude Code's `result` message (`subtype`, `is_error`, `duration_ms`, `duration_api_ms`,
 * `num_turns`, `result`, `usage`, `permission_denials`), plus hel's `error`, `model_calls` and
 * `tool_calls`.
 *
 * @module
 */
import type { LoopOutcome, Termination } from "../../core/loop.ts";
import type { RunUsage } from "../../core/usage.ts";
import type { Line } from "./messages.ts";

/** How the turn ended, in Claude Code's words where it has them. */
const SUBTYPES: Record<Termination, string> = {
  completed: "success",
  max_turns: "error_max_turns",
  max_output_tokens: "error_max_output_tokens",
  error: "error_during_execution",
  interrupted: "error_interrupted",
};

/** A call the permission path did not let run. */
export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
}

/** What the reporter counted over the run. */
export interface RunTally {
  /** Conversation replies the model gave in this turn. */
  turns: number;
  /** Tool calls the model asked for. */
  toolCalls: number;
  durationMs: number;
  /** Time spent in model requests, retries and their waits included. */
  durationApiMs: number;
  permissionDenials: readonly PermissionDenial[];
}

/** The result of a finished turn. */
export function resultLine(outcome: LoopOutcome, usage: RunUsage, tally: RunTally): Line {
  const isError = outcome.termination !== "completed";
  return {
    type: "result",
    subtype: SUBTYPES[outcome.termination],
    is_error: isError,
    duration_ms: Math.round(tally.durationMs),
    duration_api_ms: Math.round(tally.durationApiMs),
    num_turns: tally.turns,
    result: outcome.finalText,
    ...(isError ? { error: outcome.error ?? outcome.termination } : {}),
    usage: {
      input_tokens: usage.inputTokens ?? null,
      output_tokens: usage.outputTokens ?? null,
      cache_read_input_tokens: usage.cachedTokens ?? null,
    },
    model_calls: usage.modelCalls,
    tool_calls: tally.toolCalls,
    permission_denials: tally.permissionDenials.map((denial) => ({ ...denial })),
  };
}
