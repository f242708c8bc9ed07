/**
 * A tool's annotations (`title`, `readOnlyHint`, `destructiveHint`, `idempotentHint`,
 * `openWorldHint`): read from the server's listing, shown by `hel mcp list`, and used for one
 * decision only when the person opted in. The spec calls them untrusted unless they come from
 * a trusted server, since a hostile server could mark a destructive tool read-only; so every MCP
 * tool is class `execute` unless its server's entry says `"trustAnnotations": true`, and then a
 * tool with `readOnlyHint: true` counts as a read (allowed at every access level, no question).
 *
 * @module
 */
import { clipChars, isRecord } from "../../core/mod.ts";

/** The hints hel reads, in the order `hel mcp list` shows them. */
export const HINTS = [
  "readOnlyHint",
  "destructiveHint",
  "idempotentHint",
  "openWorldHint",
] as const;

/** One of {@link HINTS}. */
export type Hint = typeof HINTS[number];

/** What a tool's listing says of it: hints that are booleans, and a title that is a string. */
export interface ToolAnnotations {
  title?: string;
  hints: Partial<Record<Hint, boolean>>;
}

/** A title is shown at most this long. */
const MAX_TITLE = 100;

/**
 * The annotations of a listed tool, or undefined when it has none. Only boolean hints count (a
 * server's `"readOnlyHint": "yes"` is not true); the title is the tool's own `title` or else
 * the annotations'.
 */
export function readAnnotations(tool: Record<string, unknown>): ToolAnnotations | undefined {
  const given = tool.annotations;
  const annotations = isRecord(given) ? given : {};
  const hints: Partial<Record<Hint, boolean>> = {};
  for (const hint of HINTS) {
    if (typeof annotations[hint] === "boolean") hints[hint] = annotations[hint];
  }
  const title = [tool.title, annotations.title].find((t) => typeof t === "string" && t !== "");
  if (title === undefined && Object.keys(hints).length === 0) return undefined;
  return { ...(typeof title === "string" ? { title } : {}), hints };
}

/** True when the tool counts as a read: its server is trusted for it and it says read-only. */
export function readOnlyByAnnotations(
  annotations: ToolAnnotations | undefined,
  trusted: boolean,
): boolean {
  return trusted && annotations?.hints.readOnlyHint === true;
}

/**
 * `title "Look up a record", readOnlyHint, idempotentHint, openWorldHint false` — a hint that
 * is true by its name alone. Server text: the caller escapes controls before printing.
 */
export function annotationsText(annotations: ToolAnnotations): string {
  const parts: string[] = [];
  if (annotations.title !== undefined) {
    const title = clipChars(annotations.title, MAX_TITLE);
    parts.push(`title ${JSON.stringify(title)}`);
  }
  for (const hint of HINTS) {
    const value = annotations.hints[hint];
    if (value !== undefined) parts.push(value ? hint : `${hint} false`);
  }
  return parts.join(", ");
}
