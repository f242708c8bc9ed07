/**
 * Builds one assistant message from streamed Chat Completions chunks: text and DeepSeek's
 * `reasoning_content` are concatenated, tool-call fragments are joined by their index.
 *
 * @module
 */
import type { ModelReply, StreamListeners } from "../../core/model.ts";
import { contentText } from "./content_parts.ts";
import { readUsage } from "../../core/usage.ts";
import type { AssistantMessage, ToolCall } from "../../core/types.ts";

/** The parts of a streamed chunk hel reads; everything else is ignored. */
export interface StreamChunk {
  model?: string;
  usage?: unknown;
  choices?: {
    delta?: {
      /** A string, or (some servers) a list of typed parts; see content_parts.ts. */
      content?: unknown;
      reasoning_content?: string | null;
      tool_calls?: ToolCallPart[];
    };
    finish_reason?: string | null;
  }[];
}

/** A fragment of a streamed tool call. Vendor fields (Gemini's `extra_content`) are kept. */
export interface ToolCallPart {
  /** Some servers (Gemini's OpenAI-compatible API) leave it out. */
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
  [vendorField: string]: unknown;
}

/**
 * Where a fragment belongs. Without an `index`, a fragment with a new id starts the next call
 * and one without an id continues the last, so calls neither vanish nor merge into one.
 */
function slotOf(part: ToolCallPart, calls: readonly ToolCall[]): number {
  if (typeof part.index === "number") return part.index;
  const last = calls.length - 1;
  if (last < 0) return 0;
  return part.id && calls[last]!.id !== "" && calls[last]!.id !== part.id ? last + 1 : last;
}

/** Consumes the stream; `listeners` hear answer text and reasoning as they arrive. */
export async function assembleStream(
  chunks: AsyncIterable<StreamChunk>,
  listeners: StreamListeners = {},
): Promise<ModelReply> {
  let content = "";
  let reasoning: string | undefined;
  let finishReason: string | null = null;
  let model: string | undefined;
  let usage: unknown;
  let sawChoice = false;
  const calls: ToolCall[] = [];
  for await (const chunk of chunks) {
    model ??= chunk.model;
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      sawChoice = true;
      const delta = choice.delta ?? {};
      const text = contentText(delta.content);
      if (text) {
        content += text;
        listeners.onText?.(text);
      }
      if (delta.reasoning_content) {
        reasoning = (reasoning ?? "") + delta.reasoning_content;
        listeners.onReasoning?.(delta.reasoning_content);
      }
      for (const part of delta.tool_calls ?? []) {
        const call = calls[slotOf(part, calls)] ??= {
          id: "",
          type: "function",
          function: { name: "", arguments: "" },
        };
        // The call goes back to the server unchanged, vendor fields included.
        const { index: _index, id: _id, type: _type, function: _function, ...vendor } = part;
        Object.assign(call, vendor);
        if (part.id) call.id = part.id;
        if (part.function?.name) call.function.name += part.function.name;
        if (part.function?.arguments) call.function.arguments += part.function.arguments;
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  }
  if (!sawChoice) return { ok: false, kind: "error", error: "model stream ended with no choices" };
  const toolCalls = calls.filter((call) => call !== undefined);
  const message: AssistantMessage = {
    role: "assistant",
    content: toolCalls.length > 0 && content === "" ? null : content,
    ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  return { ok: true, message, finishReason, usage: readUsage(usage), model };
}
