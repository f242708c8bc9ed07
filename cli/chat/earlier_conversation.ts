/**
 * A saved conversation as transcript items, for a chat that continues one (`--resume`): the
 * person's messages, the answers rendered as markdown, and each tool call with its result.
 * Everything in it came from outside hel once and is neutralised here.
 *
 * @module
 */
import type { ChatMessage } from "../../core/types.ts";
import { escapeControlCharacters, neutralise } from "../../core/neutralise.ts";
import { declinedByPerson } from "../../core/permissions.ts";
import { renderMarkdown } from "./markdown.ts";
import { callSummary } from "./call_summary.ts";
import type { TranscriptItem } from "./transcript.ts";

function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** How a saved call ended, read from its result: a refusal by the person is no failure. */
function statusOf(result: string | undefined): "done" | "failed" | "declined" {
  if (result === undefined) return "failed";
  if (declinedByPerson(result)) return "declined";
  return result.startsWith("error:") ? "failed" : "done";
}

/** The items of `messages` (system messages left out); `width` for the markdown. */
export function earlierConversation(
  messages: readonly ChatMessage[],
  color: boolean,
  width = 80,
): TranscriptItem[] {
  const results = new Map<string, string>();
  for (const message of messages) {
    if (message.role === "tool") results.set(message.tool_call_id, message.content);
  }
  const items: TranscriptItem[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      items.push({ kind: "user", text: neutralise(message.content) });
    } else if (message.role === "assistant") {
      if (message.content?.trim()) {
        items.push({
          kind: "answer",
          first: true,
          text: renderMarkdown(neutralise(message.content), { width, color }),
        });
      }
      for (const call of message.tool_calls ?? []) {
        const name = call.function.name;
        const result = results.get(call.id);
        items.push({
          kind: "tool",
          call: {
            callId: call.id,
            name: escapeControlCharacters(name),
            summary: callSummary(name, parsedArguments(call.function.arguments)),
            status: statusOf(result),
            output: neutralise(result ?? ""),
          },
        });
      }
    }
  }
  if (items.length > 0) {
    items.push({
      kind: "notice",
      text: "(the conversation so far; it goes on here)",
      tone: "info",
    });
  }
  return items;
}
