/**
 * The agent loop: ask the model, run the tools it calls, append the results, repeat until it
 * answers without tools or the turn bound is reached. It does no I/O and knows no tool,
 * vendor or terminal: the model, the tool path and the event sink are injected.
 *
 * @module
 */
import type { ModelClient, StreamListeners } from "./model.ts";
import type { ChatMessage, ToolCall, ToolDefinition } from "./types.ts";
import { addFailedCall, addUsage, type RunUsage } from "./usage.ts";

/** Calls beyond this many in one response are answered with an error instead of run. */
export const MAX_CALLS_PER_RESPONSE = 64;

/** The same call failing the same way this many times in a row ends the turn. */
export const MAX_SAME_FAILURES = 3;

/** How a user turn ended. */
export type Termination = "completed" | "max_turns" | "max_output_tokens" | "error" | "interrupted";

/** The outcome of one user turn. */
export interface LoopOutcome {
  termination: Termination;
  /** The final answer; null unless the model answered. */
  finalText: string | null;
  /** What went wrong; null only for `completed`. */
  error: string | null;
}

/** What the loop needs. Every callback must not throw. */
export interface LoopDeps {
  model: ModelClient;
  /** The tool definitions for the next request, rebuilt each time. */
  toolDefinitions(): ToolDefinition[];
  /** Runs one call through the tool-call path and returns the `tool` message content. */
  executeToolCall(call: ToolCall, signal: AbortSignal): Promise<string>;
  /**
   * Called before each request with the conversation; may rewrite it in place (compaction).
   * Must not throw.
   */
  beforeRequest?(messages: ChatMessage[], signal: AbortSignal): Promise<void>;
  /** Hear streamed answer text and reasoning. */
  stream?: StreamListeners;
  /** Model calls per user turn. */
  maxTurns: number;
  usage: RunUsage;
  signal: AbortSignal;
}

/**
 * Runs one user turn over `messages` (which must already end with the user's message) and
 * appends every assistant and tool message to it.
 */
export async function runLoop(messages: ChatMessage[], deps: LoopDeps): Promise<LoopOutcome> {
  const repeats = repeatedFailures();
  for (let turn = 0; turn < deps.maxTurns; turn++) {
    if (deps.signal.aborted) return interrupted();
    await deps.beforeRequest?.(messages, deps.signal);
    const reply = await deps.model.complete(
      { messages, tools: deps.toolDefinitions(), purpose: "conversation" },
      { ...deps.stream, signal: deps.signal },
    );
    if (!reply.ok) {
      // An interrupted request cost nothing the server will report; a failed one may have.
      if (reply.kind === "interrupted") return interrupted();
      addFailedCall(deps.usage);
      return { termination: "error", finalText: null, error: reply.error };
    }
    addUsage(deps.usage, reply.usage);
    messages.push(reply.message);
    const calls = reply.message.tool_calls ?? [];
    if (calls.length === 0) {
      const text = typeof reply.message.content === "string" ? reply.message.content : "";
      if (reply.finishReason === "length") {
        return {
          termination: "max_output_tokens",
          finalText: text,
          error: "the answer was cut off at the output token limit; raise " +
            "--max-output-tokens, or ask for a shorter answer",
        };
      }
      return { termination: "completed", finalText: text, error: null };
    }
    for (const [index, call] of calls.entries()) {
      // Every call gets its answer, even after an interrupt, so the conversation stays valid.
      const content = deps.signal.aborted
        ? "error: interrupted by the user before this call ran"
        : index >= MAX_CALLS_PER_RESPONSE
        ? `error: not run: one response may ask for at most ${MAX_CALLS_PER_RESPONSE} tool ` +
          "calls; ask for the rest in your next response"
        : await deps.executeToolCall(call, deps.signal);
      messages.push({ role: "tool", tool_call_id: call.id, content });
      repeats.note(call, content);
    }
    if (repeats.stuck()) {
      // A model that keeps making the same failing call will not recover by itself, and
      // every further request costs the user tokens.
      return {
        termination: "error",
        finalText: null,
        error: `stopped: the model made the same failing call ${MAX_SAME_FAILURES} times in a ` +
          `row (${repeats.stuck()}); rephrase the task or check the tool it keeps calling`,
      };
    }
  }
  return {
    termination: "max_turns",
    finalText: null,
    error: `stopped after ${deps.maxTurns} model call${deps.maxTurns === 1 ? "" : "s"} ` +
      "without a final answer; " +
      "raise --max-turns to allow more, or split the task",
  };
}

/** Tracks consecutive calls that are identical (name, arguments, error) and failed. */
function repeatedFailures() {
  let last = "";
  let count = 0;
  return {
    note(call: ToolCall, content: string) {
      const key = content.startsWith("error: ")
        ? JSON.stringify([call.function.name, call.function.arguments, content])
        : "";
      count = key !== "" && key === last ? count + 1 : key === "" ? 0 : 1;
      last = key;
    },
    /** The name of the tool being called over and over, or undefined. */
    stuck(): string | undefined {
      return count >= MAX_SAME_FAILURES ? JSON.parse(last)[0] : undefined;
    },
  };
}

function interrupted(): LoopOutcome {
  return { termination: "interrupted", finalText: null, error: "interrupted" };
}
