/**
 * A prompt's messages (`prompts/get`) as the text of one user turn: texts as they are, an
 * embedded text resource as its text under its URI, binary contents (images, audio, blobs) as
 * a line with MIME type and size, resource links as a line with name and URI. When the prompt
 * holds messages of the assistant too, each message is introduced by its role. A prompt over
 * {@link MAX_PROMPT_CHARS} characters is refused rather than sent.
 *
 * @module
 */
import { codePointLength, groupDigits, isRecord } from "../../core/mod.ts";
import { convertBlock, MalformedBlock } from "./content_blocks.ts";

/** The longest prompt hel sends as a turn (as much as piped input may be). */
export const MAX_PROMPT_CHARS = 200_000;

/** The turn's text, or what is wrong with the server's answer (for the person). */
export function promptText(
  server: string,
  prompt: string,
  result: Record<string, unknown>,
): { ok: true; text: string } | { ok: false; error: string } {
  const messages = result.messages;
  if (!Array.isArray(messages)) {
    return {
      ok: false,
      error: `MCP server ${server} answered prompts/get for ${prompt} without a "messages" list`,
    };
  }
  const parts = messages.flatMap((message) => {
    if (!isRecord(message)) return [];
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const text = blocks.map(blockText).filter((part) => part !== "").join("\n\n");
    if (text === "") return [];
    return [{ role: message.role === "assistant" ? "assistant" : "user", text }];
  });
  if (parts.length === 0) {
    return { ok: false, error: `MCP server ${server} gave prompt ${prompt} with nothing in it` };
  }
  const withRoles = parts.some((part) => part.role !== "user");
  const text = parts.map((part) => withRoles ? `[${part.role}]\n${part.text}` : part.text)
    .join("\n\n");
  const length = codePointLength(text);
  if (length > MAX_PROMPT_CHARS) {
    return {
      ok: false,
      error: `MCP server ${server} gave prompt ${prompt} of ${groupDigits(length)} characters, ` +
        `over the ${groupDigits(MAX_PROMPT_CHARS)} hel sends as a message; it was not sent`,
    };
  }
  return { ok: true, text };
}

/**
 * A prompt block as the model reads a tool result's (content_blocks.ts: one wording for both);
 * a block the protocol does not allow is named rather than sent. Images and audio stay markers:
 * a prompt is sent as the person's text.
 */
function blockText(block: unknown, index: number): string {
  try {
    const converted = convertBlock(block, index);
    return converted.kind === "empty" ? "" : converted.text;
  } catch (error) {
    if (!(error instanceof MalformedBlock)) throw error;
    return `[a block hel cannot read: ${error.message}]`;
  }
}
