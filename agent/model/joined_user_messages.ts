/**
 * The messages of a request with every run of consecutive user messages joined into one. A
 * conversation can hold two in a row — hel's note that an MCP server changed its tools before
 * the person's message, images from tool results before such a note — and many servers' chat
 * templates (Mistral's, Gemma's and others run under vLLM or llama.cpp) refuse a request whose
 * roles do not alternate. The conversation and the journal keep the messages as they are; only
 * what is sent is joined.
 *
 * @module
 */

/** Text joins text with a blank line; anything else joins as content parts, in order. */
export function joinAdjacentUserMessages(messages: readonly unknown[]): unknown[] {
  const sent: unknown[] = [];
  for (const message of messages) {
    const previous = sent.at(-1);
    if (isUser(message) && isUser(previous)) {
      sent[sent.length - 1] = { ...previous, content: joined(previous.content, message.content) };
    } else sent.push(message);
  }
  return sent;
}

type UserMessage = { role: "user"; content: unknown };

function isUser(message: unknown): message is UserMessage {
  return typeof message === "object" && message !== null &&
    (message as { role?: unknown }).role === "user";
}

function joined(first: unknown, second: unknown): unknown {
  if (typeof first === "string" && typeof second === "string") return `${first}\n\n${second}`;
  return [...parts(first), ...parts(second)];
}

function parts(content: unknown): unknown[] {
  if (Array.isArray(content)) return content;
  return [{ type: "text", text: typeof content === "string" ? content : "" }];
}
