/**
 * The bound on one message from a server (`"maxMessageBytes"` in its mcp.json entry): reading
 * the setting, and what hel can still learn from a message it skipped for being over it — the
 * JSON-RPC id of the request it answers, read from the few bytes kept of its start and end, so
 * that only that call fails and the server stays connected.
 *
 * @module
 */
import type { Node } from "jsonc-parser";

/** One message from a server is read up to this many bytes unless its entry says otherwise. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** The smallest setting accepted: an `initialize` answer or a tools/list page must fit. */
const MIN_MAX_MESSAGE_BYTES = 64 * 1024;
/**
 * The largest accepted: a message is decoded into one string, and V8 refuses strings of more
 * than about 512 Mi characters.
 */
const MAX_MAX_MESSAGE_BYTES = 512 * 1024 * 1024;
/** Bytes kept of the start of a skipped message (where a Python or Go server puts the id). */
export const HEAD_BYTES = 4096;
/** Bytes kept of its end (where the TypeScript SDK puts the id, after the result). */
export const TAIL_BYTES = 256;

/** `64 MiB` for a whole number of MiB, else the bytes. */
export function limitText(bytes: number): string {
  const mib = bytes / 1024 / 1024;
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

/** The entry's `maxMessageBytes`, or undefined after reporting why it is wrong. */
export function readMaxMessageBytes(
  here: string,
  value: Node,
  report: (node: Node, message: string) => void,
): number | undefined {
  const bytes = value.value;
  if (
    value.type === "number" && typeof bytes === "number" && Number.isInteger(bytes) &&
    bytes >= MIN_MAX_MESSAGE_BYTES && bytes <= MAX_MAX_MESSAGE_BYTES
  ) {
    return bytes;
  }
  report(
    value,
    `${here} must be a whole number of bytes from ${MIN_MAX_MESSAGE_BYTES} to ` +
      `${MAX_MAX_MESSAGE_BYTES} (512 MiB), e.g. 134217728 for 128 MiB; leave it out for the ` +
      `default of ${limitText(DEFAULT_MAX_MESSAGE_BYTES)}`,
  );
  return undefined;
}

/** What the reader kept of a message it skipped. */
export interface SkippedMessage {
  /** The message's first bytes ({@link HEAD_BYTES} at most). */
  head: Uint8Array;
  /** Its last bytes ({@link TAIL_BYTES} at most), or empty when the head holds all of them. */
  tail: Uint8Array;
  /** Its whole size in bytes. */
  size: number;
}

/** Shared by every skipped message: decode() without `stream` keeps no state between calls. */
const decoder = new TextDecoder();

/** What a skipped message was, as far as its ends tell. */
export type SkippedKind =
  | { kind: "request-or-notification" }
  | { kind: "answer"; id: string | number }
  | { kind: "unknown" };

/**
 * Reads the kind of a skipped message from its ends: a `"method"` among the head's top-level
 * keys makes it the server's own request or notification (no call of hel's waits for it); an
 * `"id"` among them, or as the last member before the closing brace, names the request it
 * answers. Nothing here is trusted beyond failing one of the same server's calls.
 */
export function skippedKind(message: SkippedMessage): SkippedKind {
  const head = topLevelKeys(decoder.decode(message.head));
  if (head.has("method")) return { kind: "request-or-notification" };
  const fromHead = head.get("id");
  if (typeof fromHead === "string" || typeof fromHead === "number") {
    return { kind: "answer", id: fromHead };
  }
  const tail = decoder.decode(message.tail);
  const last = tail.match(/[,{]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*\}\s*$/);
  if (last) return { kind: "answer", id: JSON.parse(last[1]!) as string | number };
  return { kind: "unknown" };
}

/**
 * The top-level keys of the start of a JSON object, each with its value when that is a number
 * or a string read whole (else null). Stops where the text stops.
 */
function topLevelKeys(text: string): Map<string, string | number | null> {
  const keys = new Map<string, string | number | null>();
  let depth = 0;
  let index = text.search(/\S/);
  if (index === -1 || text[index] !== "{") return keys;
  let expectKey = false;
  while (index < text.length) {
    const char = text[index]!;
    if (char === " " || char === "\t" || char === "\n" || char === "\r") {
      index++;
      continue;
    }
    if (char === '"') {
      const end = stringEnd(text, index);
      if (end === -1) return keys;
      const afterString = text.slice(end + 1).match(/^\s*:/);
      if (depth === 1 && expectKey && afterString) {
        const key = JSON.parse(text.slice(index, end + 1)) as string;
        const rest = text.slice(end + 1 + afterString[0].length);
        const value = rest.match(/^\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*")\s*[,}]/);
        keys.set(key, value ? JSON.parse(value[1]!) as string | number : null);
      }
      expectKey = false;
      index = end + 1;
      continue;
    }
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
    expectKey = depth === 1 && (char === "{" || char === ",");
    if (depth === 0 && char === "}") return keys;
    index++;
  }
  return keys;
}

/** The index of the quote that ends the string starting at `start`, or -1 when cut off. */
function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index++) {
    if (text[index] === "\\") index++;
    else if (text[index] === '"') return index;
  }
  return -1;
}
