/**
 * Builds one assistant message from streamed Chat Completions chunks: text and DeepSeek's
 * `reasoning_content` are concatenated, tool-call fragments are joined by their index.
 *
 * @module
 */
import type { ModelReply } from "./model.ts";
import { readUsage } from "./usage.ts";
import type { AssistantMessage, ToolCall } from "../types.ts";

/** The parts of a streamed chunk hel reads; everything else is ignored. */
export interface StreamChunk {
  model?: string;
  usage?: unknown;
  choices?: {
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      tool_calls?: {
        index: number;
        id?: string;
        type?: string;
        function?: { name?: string; arguments?: string };
      }[];
    };
    finish_reason?: string | null;
  }[];
}

/** Consumes the stream; `onText` sees answer text as it arrives. */
export async function assembleStream(
  chunks: AsyncIterable<StreamChunk>,
  onText?: (text: string) => void,
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
      if (delta.content) {
        content += delta.content;
        onText?.(delta.content);
      }
      if (delta.reasoning_content) reasoning = (reasoning ?? "") + delta.reasoning_content;
      for (const part of delta.tool_calls ?? []) {
        const call = calls[part.index] ??= {
          id: "",
          type: "function",
          function: { name: "", arguments: "" },
        };
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
