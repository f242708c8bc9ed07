/**
 * Run events as stream-json lines, named as Claude Code names them where the concepts match
 * (`system`/`init`, `stream_event` deltas, `assistant` with text and `tool_use` blocks, `user`
 * with `tool_result` blocks, `system`/`compact_boundary`, `system`/`api_retry`) and with hel
 * names where they do not (`system`/`permission`, `system`/`warning`). Pure functions: the
 * reporter adds `uuid` and `session_id` as it writes each line.
 *
 * @module
 */
import type {
  CompactionEvent,
  PermissionEvent,
  RetryEvent,
  ToolCallEvent,
} from "../../core/events.ts";
import type { ModelSuccess } from "../../core/model.ts";
import type { AccessLevel, Usage } from "../../core/types.ts";

/** A stream-json line before `uuid` and `session_id` are added. */
export type Line = { type: string } & Record<string, unknown>;

/** Token counts in Claude Code's names; null where the server reported none. */
export interface TokenUsage {
  /** Prompt tokens, cached ones included (the OpenAI-compatible count). */
  input_tokens: number | null;
  output_tokens: number | null;
  cache_read_input_tokens: number | null;
}

/** One reply's usage in Claude Code's names. */
export function tokenUsage(usage: Usage | undefined): TokenUsage {
  return {
    input_tokens: usage?.promptTokens ?? null,
    output_tokens: usage?.completionTokens ?? null,
    cache_read_input_tokens: usage === undefined ? null : usage.cachedTokens ?? null,
  };
}

/** An MCP server as the init line lists it. */
export interface McpServerEntry {
  name: string;
  /** `connected`, or `skipped` when it could not be started (`reason` says why). */
  status: string;
  tools?: number;
  reason?: string;
}

/** What the init line reports about the run. */
export interface InitFacts {
  cwd: string;
  model: string;
  baseUrl: string;
  access: AccessLevel;
  tools: readonly string[];
  mcpServers: readonly McpServerEntry[];
  version: string;
}

/** The first line: what the run is made of. */
export function initLine(facts: InitFacts): Line {
  return {
    type: "system",
    subtype: "init",
    cwd: facts.cwd,
    model: facts.model,
    base_url: facts.baseUrl,
    access: facts.access,
    tools: [...facts.tools],
    mcp_servers: facts.mcpServers.map((server) => ({ ...server })),
    hel_version: facts.version,
  };
}

/** A piece of streamed answer text (`text_delta`) or reasoning (`thinking_delta`). */
export function deltaLine(kind: "text" | "thinking", index: number, text: string): Line {
  const delta = kind === "text"
    ? { type: "text_delta", text }
    : { type: "thinking_delta", thinking: text };
  return {
    type: "stream_event",
    parent_tool_use_id: null,
    event: { type: "content_block_delta", index, delta },
  };
}

/** Chat Completions' finish reasons in the Messages API's words; others as sent. */
const STOP_REASONS: Record<string, string> = {
  stop: "end_turn",
  tool_calls: "tool_use",
  length: "max_tokens",
};

/** A call's arguments as a `tool_use` input: the parsed object, or the text when not one. */
function toolInput(raw: string): { input: Record<string, unknown>; raw_arguments?: string } {
  try {
    const value = JSON.parse(raw === "" ? "{}" : raw);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      return { input: value };
    }
  } catch { /* kept as text below */ }
  return { input: {}, raw_arguments: raw };
}

/** A conversation reply: its reasoning, text and tool calls as content blocks. */
export function assistantLine(reply: ModelSuccess): Line {
  const { message } = reply;
  const content: Record<string, unknown>[] = [];
  if (typeof message.reasoning_content === "string" && message.reasoning_content !== "") {
    content.push({ type: "thinking", thinking: message.reasoning_content });
  }
  if (typeof message.content === "string" && message.content !== "") {
    content.push({ type: "text", text: message.content });
  }
  for (const call of message.tool_calls ?? []) {
    content.push({
      type: "tool_use",
      id: call.id,
      name: call.function.name,
      ...toolInput(call.function.arguments),
    });
  }
  const finish = reply.finishReason;
  return {
    type: "assistant",
    parent_tool_use_id: null,
    message: {
      type: "message",
      role: "assistant",
      model: reply.model ?? null,
      content,
      stop_reason: finish === null ? null : STOP_REASONS[finish] ?? finish,
      usage: tokenUsage(reply.usage),
    },
  };
}

/** How a call ended: the tool path's status, or `not_run` when hel answered it unrun. */
export type ToolResultStatus = ToolCallEvent["status"] | "not_run";

/** A tool's result as the model reads it, in a `user` message as Claude Code sends it. */
export function toolResultLine(
  callId: string,
  content: string,
  status: ToolResultStatus,
): Line {
  return {
    type: "user",
    parent_tool_use_id: null,
    message: {
      role: "user",
      content: [{
        type: "tool_result",
        tool_use_id: callId,
        content,
        is_error: status !== "done",
        status,
      }],
    },
  };
}

/** A finished call from the tool path. */
export function toolCallResultLine(event: ToolCallEvent): Line {
  return toolResultLine(event.callId, event.text, event.status);
}

/** The permission decision taken for one call. */
export function permissionLine(event: PermissionEvent): Line {
  return {
    type: "system",
    subtype: "permission",
    tool_use_id: event.callId,
    tool_name: event.name,
    decision: event.decision,
    approval: event.approval,
    executed: event.executed,
    access: event.access,
    hook_blocked: event.hookBlocked === true,
  };
}

/** A compaction that changed the conversation. */
export function compactionLine(event: CompactionEvent): Line {
  return {
    type: "system",
    subtype: "compact_boundary",
    compact_metadata: {
      trigger: event.trigger,
      pre_tokens: event.tokensBefore,
      post_tokens: event.tokensAfter,
      summarised_messages: event.summarised,
      pruned_results: event.pruned,
    },
  };
}

/** A failed model request about to be tried again. */
export function retryLine(event: RetryEvent): Line {
  return {
    type: "system",
    subtype: "api_retry",
    attempt: event.attempt,
    retry_delay_ms: event.delayMs,
    error: event.reason,
  };
}

/** A warning hel also prints on stderr. */
export function warningLine(text: string): Line {
  return { type: "system", subtype: "warning", message: text };
}
