/**
 * Run events: what happened during a run, for the terminal, the run recorder and plugins'
 * `observe`. Types only.
 *
 * @module
 */
import type { ModelReply } from "./model.ts";
import type { Approval, PermissionDecision } from "./permissions.ts";
import type { AccessLevel, ToolCategory, ToolClass } from "./types.ts";

/** Why a model request was made: the conversation itself, or an auxiliary job. */
export type RequestPurpose = "conversation" | "compaction";

/** One model exchange, recorded verbatim (without credentials) for `raw/requests.jsonl`. */
export interface ModelExchangeEvent {
  type: "model_exchange";
  purpose: RequestPurpose;
  request: unknown;
  /** The response body (assembled for streams), or undefined when the request failed. */
  response?: unknown;
  error?: string;
}

/**
 * A model request finished: its reply as the client returned it (an answer, or a failure after
 * retries) and how long it took, retries and their waits included.
 */
export interface ModelReplyEvent {
  type: "model_reply";
  purpose: RequestPurpose;
  reply: ModelReply;
  durationMs: number;
}

/** The conversation was compacted: old results pruned, older messages summarised, or both. */
export interface CompactionEvent {
  type: "compaction";
  /** `auto` before a request over the threshold; `manual` for `/compact`. */
  trigger: "auto" | "manual";
  /** Messages a summary replaced (0: no summary). */
  summarised: number;
  /** Old tool results cut to their head and tail. */
  pruned: number;
  /** The conversation's estimated size before and after, in tokens. */
  tokensBefore: number;
  tokensAfter: number;
}

/** A retryable failure; hel waits `delayMs` and tries again. */
export interface RetryEvent {
  type: "retry";
  /** The retry about to be made: 1 for the second attempt. */
  attempt: number;
  /** Retries hel makes at most (fewer when the time bound comes first). */
  maxRetries: number;
  delayMs: number;
  /** The cause of the failed attempt, without the hint its final error adds. */
  reason: string;
}

/** A tool call about to run: approved (or allowed) and past every before-call hook. */
export interface ToolStartEvent {
  type: "tool_start";
  callId: string;
  name: string;
  args: unknown;
  category: ToolCategory;
}

/** A piece of a running call's output (a command's stdout or stderr), as the tool wrote it. */
export interface ToolOutputEvent {
  type: "tool_output";
  callId: string;
  text: string;
}

/**
 * How a call ended: ran and succeeded, failed (refused before running included), or was
 * declined (by the person, nobody to ask, or the access level) — a decision, not a failure.
 */
export type ToolCallStatus = "done" | "failed" | "declined";

/** A finished tool call, as the model will see it. */
export interface ToolCallEvent {
  type: "tool_call";
  callId: string;
  name: string;
  args: unknown;
  category: ToolCategory;
  ok: boolean;
  status: ToolCallStatus;
  /** The model-visible text (after interception and spilling). */
  text: string;
}

/** The permission decision taken for one call (`raw/permissions.jsonl`). */
export interface PermissionEvent {
  type: "permission";
  /** The call decided on (the id the model gave it). */
  callId: string;
  name: string;
  args: unknown;
  access: AccessLevel;
  toolClass: ToolClass | null;
  decision: PermissionDecision;
  approval: Approval | null;
  executed: boolean;
  hookBlocked?: boolean;
}

/** A warning shown to the user. */
export interface WarningEvent {
  type: "warning";
  text: string;
}

/** A plugin-specific trace line (hooks, MCP), kept in the run record's raw folder. */
export interface TraceEvent {
  type: "trace";
  /** The trace file stem, e.g. `hooks` or `mcp`. */
  channel: string;
  data: Record<string, unknown>;
}

/** Any run event. */
export type HelEvent =
  | ModelExchangeEvent
  | ModelReplyEvent
  | CompactionEvent
  | RetryEvent
  | ToolStartEvent
  | ToolOutputEvent
  | ToolCallEvent
  | PermissionEvent
  | WarningEvent
  | TraceEvent;
