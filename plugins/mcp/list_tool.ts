/**
 * One usable tool as `hel mcp list` shows it: its listing line, the server's own name where the
 * model-facing name differs (a `tools` allowlist and the server's documentation use that one)
 * and why, and its annotations with whether they count. Server text is escaped by the caller.
 *
 * @module
 */
import { clipChars } from "../../core/mod.ts";
import { type CatalogEntry, listingLine } from "./catalog.ts";
import { annotationsText } from "./tool_annotations.ts";
import { renamedText } from "./tool_names.ts";

/** A server's tool name is shown at most this long (some are hundreds of characters). */
const MAX_SHOWN_NAME = 80;

/** The lines of one tool, indented for the server's block. */
export function toolLines(entry: CatalogEntry): string[] {
  const own = entry.fullName === `mcp__${entry.server}__${entry.toolName}`
    ? ""
    : ` (server's name: ${JSON.stringify(shortened(entry.toolName))}${
      entry.renamed ? `; hashed: ${renamedText(entry.renamed, entry.server, entry.toolName)}` : ""
    })`;
  const lines = [`  ${listingLine(entry)}${own}`];
  if (entry.annotations) {
    const counts = entry.readOnly
      ? " (trusted: a read)"
      : entry.annotations.hints.readOnlyHint
      ? " (untrusted: runs as any tool)"
      : "";
    lines.push(`      annotations: ${annotationsText(entry.annotations)}${counts}`);
  }
  return lines;
}

function shortened(name: string): string {
  return clipChars(name, MAX_SHOWN_NAME);
}
