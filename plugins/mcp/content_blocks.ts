/**
 * One content block of a `tools/call` result as the model reads it. Text is the server's text;
 * everything else becomes one line hel writes — `[image: image/png, 12.3 KiB]`, a resource's URI
 * (with its text when it has one), a resource link's URI, name, type and description — so
 * nothing the model could use is lost and no binary data reaches it as text. Server fields in
 * those lines are cut and quoted so they stay on their line: a name cannot end the line and
 * forge one of hel's. A block that breaks the protocol's shape is the server's mistake, named
 * by {@link MalformedBlock}.
 *
 * @module
 */
import { base64Bytes, sizeText } from "./byte_sizes.ts";
import { clipChars, isRecord, type ToolMedia } from "../../core/mod.ts";

/** Images and audio larger than this (decoded) are not attached, only marked. */
export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;

/** What one block became: text for the model, binary data that text marks, or a mistake. */
export type BlockText =
  | {
    kind: "text";
    text: string;
    /** True for text the server wrote (a text block, a text resource), not one of hel's lines. */
    textual?: boolean;
    media?: ToolMedia;
    binary?: Binary;
  }
  | { kind: "empty" };

/** Binary data a block carried, so a structured result repeating it can say so instead. */
export interface Binary {
  data: string;
  /** What stands for it: `image/png, 12.3 KiB`. */
  summary: string;
}

/** A block the protocol does not allow; `problem` says what is wrong with it. */
export class MalformedBlock extends Error {}

/** The longest a server field may be in one of hel's lines. */
const FIELD_CHARS = { uri: 2_000, name: 200, description: 500, type: 100 } as const;

/** Converts block `index` of a result's `content`. Throws {@link MalformedBlock}. */
export function convertBlock(block: unknown, index: number): BlockText {
  const at = `content[${index}]`;
  if (!isRecord(block)) throw new MalformedBlock(`${at} is ${kindOf(block)}, not a block object`);
  const type = block.type;
  if (typeof type !== "string") throw new MalformedBlock(`${at} has no "type"`);
  const forUser = meantForUserOnly(block.annotations);
  switch (type) {
    case "text": {
      if (typeof block.text !== "string") {
        throw new MalformedBlock(`${at} is a text block without a "text" string`);
      }
      if (block.text.trim() === "") return { kind: "empty" };
      // Annotations are untrusted hints: the text is kept, only labelled.
      const text = forUser ? `(meant for the user) ${block.text}` : block.text;
      return { kind: "text", text, textual: true };
    }
    case "image":
    case "audio":
      return mediaBlock(block, type, at, forUser);
    case "resource":
      return embeddedResource(block.resource, at);
    case "resource_link":
      return { kind: "text", text: resourceLink(block, at) };
    default:
      // A block type of a newer protocol: named, never guessed at.
      return { kind: "text", text: `[${field(type, "type")} content omitted: hel cannot read it]` };
  }
}

function mediaBlock(
  block: Record<string, unknown>,
  kind: "image" | "audio",
  at: string,
  forUser: boolean,
): BlockText {
  const mimeType = mimeTypeOf(block.mimeType, `${at} (${kind})`);
  const binary = base64Of(block.data, `${at} (${kind}) "data"`, mimeType);
  const notes = forUser ? ", meant for the user" : "";
  const tooLarge = binary.bytes > MAX_MEDIA_BYTES
    ? `, too large to attach (over ${sizeText(MAX_MEDIA_BYTES)})`
    : "";
  const marker = `[${kind}: ${binary.summary}${notes}${tooLarge}]`;
  // What is meant for the user alone, or too large, is not sent to the model as media.
  const attach = !forUser && tooLarge === "";
  return {
    kind: "text",
    text: marker,
    binary,
    ...(attach
      ? { media: { kind, mimeType, data: binary.data, bytes: binary.bytes, marker } }
      : {}),
  };
}

/**
 * An embedded resource (or one content of `resources/read`): its URI and type, then its text,
 * or its size for a blob.
 */
export function embeddedResource(resource: unknown, at: string): BlockText {
  if (!isRecord(resource) || typeof resource.uri !== "string") {
    throw new MalformedBlock(`${at} is a resource block without a resource object with a "uri"`);
  }
  const uri = field(resource.uri, "uri");
  const mimeType = resource.mimeType === undefined
    ? undefined
    : mimeTypeOf(resource.mimeType, `${at}.resource`);
  if (typeof resource.text === "string") {
    const line = `[resource: ${uri}${mimeType ? `, ${mimeType}` : ""}]`;
    return { kind: "text", text: `${line}\n${resource.text}`, textual: true };
  }
  if (typeof resource.blob !== "string") {
    throw new MalformedBlock(`${at}.resource has neither a "text" nor a "blob" string`);
  }
  const binary = base64Of(resource.blob, `${at}.resource "blob"`, mimeType);
  return {
    kind: "text",
    text: `[resource: ${uri}, ${binary.summary} of binary data, not shown]`,
    binary,
  };
}

/** `[resource link: URI name="…" type=… size=… description="…"]`: the URI fetches it. */
function resourceLink(block: Record<string, unknown>, at: string): string {
  if (typeof block.uri !== "string" || typeof block.name !== "string") {
    throw new MalformedBlock(`${at} is a resource_link without a "uri" and a "name" string`);
  }
  const parts = [field(block.uri, "uri"), `name=${quoted(block.name, "name")}`];
  if (typeof block.title === "string") parts.push(`title=${quoted(block.title, "name")}`);
  if (block.mimeType !== undefined) parts.push(`type=${mimeTypeOf(block.mimeType, at)}`);
  if (typeof block.size === "number" && Number.isFinite(block.size) && block.size >= 0) {
    parts.push(`size=${sizeText(block.size)}`);
  }
  if (typeof block.description === "string" && block.description.trim() !== "") {
    parts.push(`description=${quoted(block.description, "description")}`);
  }
  return `[resource link: ${parts.join(" ")}]`;
}

/** A MIME type as the protocol means it (`image/png`), lower-cased; else the server's mistake. */
function mimeTypeOf(value: unknown, what: string): string {
  const text = typeof value === "string" ? value.trim().toLowerCase() : "";
  if (!/^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/.test(text)) {
    throw new MalformedBlock(
      `${what} has ${
        typeof value === "string" ? `mimeType ${quoted(value, "type")}` : "no mimeType string"
      }, not a MIME type such as image/png`,
    );
  }
  return text;
}

/** Checked base64 (whitespace dropped), its decoded size and its summary. */
function base64Of(
  value: unknown,
  what: string,
  mimeType: string | undefined,
): Binary & { bytes: number } {
  if (typeof value !== "string") throw new MalformedBlock(`${what} is not a base64 string`);
  const data = /\s/.test(value) ? value.replace(/\s+/g, "") : value;
  const body = data.replace(/={1,2}$/, "");
  if (!/^[A-Za-z0-9+/]*$/.test(body) || body.length % 4 === 1) {
    throw new MalformedBlock(`${what} is not base64`);
  }
  const bytes = base64Bytes(data);
  return { data, bytes, summary: `${mimeType ?? "unknown type"}, ${sizeText(bytes)}` };
}

/** True when the block's untrusted `audience` names the user and not the model. */
function meantForUserOnly(annotations: unknown): boolean {
  const audience = isRecord(annotations) ? annotations.audience : undefined;
  return Array.isArray(audience) && audience.includes("user") && !audience.includes("assistant");
}

/** A server value as one token of hel's line: bare when plain, else quoted; always cut. */
function field(value: string, kind: keyof typeof FIELD_CHARS): string {
  const cut = clipChars(value, FIELD_CHARS[kind]);
  return /^[!#-\\^-~]+$/.test(cut) && !cut.includes(",") ? cut : JSON.stringify(cut);
}

/** A server value quoted as JSON (one line, controls escaped), cut to its kind's length. */
function quoted(value: string, kind: keyof typeof FIELD_CHARS): string {
  const cut = clipChars(value, FIELD_CHARS[kind]);
  return JSON.stringify(cut);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return `a ${typeof value}`;
}
