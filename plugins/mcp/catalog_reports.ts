/**
 * What the person and the trace are told of a catalog: tools a listing excluded, and what the
 * `tools` allowlists did (left-out tools counted, never warned one by one; an entry that
 * matched nothing warned, since a typo would otherwise silently offer nothing).
 *
 * @module
 */
import type { Catalog, CatalogEntry, Exclusion } from "./catalog.ts";
import { renamedText } from "./tool_names.ts";
import type { Trace } from "./connection.ts";
import { unmatchedText } from "./tool_filter.ts";

/** Traces and warns each excluded tool. */
export function reportExcluded(
  items: readonly Exclusion[],
  trace: Trace,
  warn: (text: string) => void,
): void {
  for (const item of items) {
    trace({
      event: "tool_excluded",
      server: item.server,
      tool: item.toolName,
      reason: item.reason,
    });
    warn(
      `MCP tool ${JSON.stringify(item.toolName)} of server ${item.server} excluded: ${item.reason}`,
    );
  }
}

/** Traces each allowlist's count of left-out tools and warns of entries that matched nothing. */
export function reportAllowlists(
  catalog: Catalog,
  trace: Trace,
  warn: (text: string) => void,
): void {
  for (const [server, leftOut] of catalog.leftOut) {
    const unmatched = catalog.unmatched.filter((item) => item.server === server);
    trace({
      event: "tools_filter",
      server,
      left_out: leftOut,
      unmatched: unmatched.map((item) => item.entry),
    });
    for (const item of unmatched) warn(unmatchedText(item));
  }
}

/** Traces each tool under a hashed name: that name is the model's only one for the tool. */
export function reportRenamed(entries: readonly CatalogEntry[], trace: Trace): void {
  for (const entry of entries.filter((entry) => entry.renamed)) {
    trace({
      event: "tool_renamed",
      server: entry.server,
      tool: entry.toolName,
      name: entry.fullName,
      reason: renamedText(entry.renamed!, entry.server, entry.toolName),
    });
  }
}
