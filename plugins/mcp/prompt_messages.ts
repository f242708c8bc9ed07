/**
 * A prompt's messages (`prompts/get`) as the text of one user turn: texts as they are, an
 * embedded text resource as its text under its URI, binary contents (images, audio, blobs) as
 * a line with MIME type and size, resource links as a line with name and URI. When the prompt
 * holds messages of the assistant too, each message is introduced by its role. A prompt over
 * {@link MAX_PROMPT_CHARS} characters is refused rather than sent.
 *
 * @module
 */
import { codePointLength, groupDigits } from "../../core/mod.ts";
import { base64Bytes, sizeText } from "./byte_sizes.ts";
import { isRecord } from "./server_requests.ts";

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

function blockText(block: unknown): string {
  if (!isRecord(block)) return "";
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "image":
    case "audio": {
      const data = typeof block.data === "string" ? block.data : "";
      return `[${block.type} from the prompt: ${str(block.mimeType) ?? "unknown type"}, ${
        sizeText(base64Bytes(data))
      }; not included]`;
    }
    case "resource": {
      const resource = isRecord(block.resource) ? block.resource : {};
      const uri = str(resource.uri) ?? "(no URI)";
      if (typeof resource.text === "string") return `Resource ${uri}:\n${resource.text}`;
      const blob = typeof resource.blob === "string" ? resource.blob : "";
      return `[binary resource ${uri}: ${str(resource.mimeType) ?? "unknown type"}, ${
        sizeText(base64Bytes(blob))
      }; not included]`;
    }
    case "resource_link": {
      const facts = [str(block.mimeType), str(block.description)].filter((fact) => fact);
      return `[resource ${str(block.name) ?? ""} ${str(block.uri) ?? "(no URI)"}${
        facts.length > 0 ? `: ${facts.join(", ")}` : ""
      }]`.replace("[resource  ", "[resource ");
    }
    default: {
      // The type is server text; keep it to a plain word.
      const type = String(block.type ?? "unknown").replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 40);
      return `[${type} content from the prompt; not included]`;
    }
  }
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}
