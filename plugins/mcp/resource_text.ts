/**
 * What the model reads of a server's resources: listing lines (URI, name, MIME type, size,
 * description) and the contents of `resources/read` — texts whole with their URI (the core
 * spills a large one to a file like any large result), binary contents as a line with URI,
 * MIME type and size, never as base64.
 *
 * @module
 */
import { sizeText } from "./byte_sizes.ts";
import { embeddedResource, MalformedBlock } from "./content_blocks.ts";
import { clipChars, isRecord } from "../../core/mod.ts";
import { escapeControlCharacters } from "../../kit/mod.ts";

/** Characters of a description a listing line shows. */
const DESCRIPTION_CHARS = 200;

/**
 * `- <uri> — <name> (<mime type>, <size>): <description>` for a listed resource or template,
 * on one line, terminal and bidi controls escaped (it may reach the system message's notes).
 */
export function resourceLine(item: unknown, uriKey: "uri" | "uriTemplate"): string | undefined {
  if (!isRecord(item) || typeof item[uriKey] !== "string" || item[uriKey] === "") return undefined;
  const name = text(item.title) ?? text(item.name);
  const facts = [text(item.mimeType), sizeOf(item.size)].filter((fact) => fact !== undefined);
  const description = text(item.description);
  return escapeControlCharacters(
    `- ${oneLine(item[uriKey] as string)}` +
      (name !== undefined ? ` — ${oneLine(name)}` : "") +
      (facts.length > 0 ? ` (${facts.join(", ")})` : "") +
      (description !== undefined ? `: ${clipChars(oneLine(description), DESCRIPTION_CHARS)}` : ""),
  );
}

/** The text of a `resources/read` result for `uri`, or why it holds nothing readable. */
export function readText(server: string, uri: string, result: Record<string, unknown>): {
  ok: boolean;
  text: string;
} {
  const contents = result.contents;
  if (!Array.isArray(contents)) {
    return {
      ok: false,
      text: `MCP server ${server} answered resources/read for ${uri} without a "contents" list ` +
        "(the server's mistake); try again later or continue without it",
    };
  }
  if (contents.length === 0) return { ok: true, text: `Resource ${uri} is empty.` };
  // Each content worded as an embedded resource in a tool result (content_blocks.ts).
  const parts = contents.map((content, index) => {
    try {
      const converted = embeddedResource(content, `contents[${index}]`);
      return converted.kind === "text" ? converted.text : "";
    } catch (error) {
      if (!(error instanceof MalformedBlock)) throw error;
      return `[a resource content hel cannot read: ${error.message}]`;
    }
  });
  return { ok: true, text: parts.join("\n\n") };
}

/** A server's `size` field in hel's wording; undefined when it is not a size. */
function sizeOf(size: unknown): string | undefined {
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) return undefined;
  return sizeText(size);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** `value` with its line breaks (and the blanks around them) as one space. */
export function oneLine(value: string): string {
  return value.replace(/\s*[\r\n]+\s*/g, " ");
}
