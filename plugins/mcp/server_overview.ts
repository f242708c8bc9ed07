/**
 * The system-message section of search mode: instead of a line per tool, a line per server
 * with how many tools it offers, and how to find them (`search_mcp_tools`). Its size depends
 * on the number of servers, not of tools. The servers' own instructions follow it as in list
 * mode (instructions.ts).
 *
 * @module
 */
import type { CatalogEntry } from "./catalog.ts";
import { SEARCH_TOOL_NAME } from "./search_tool.ts";

/** The section for `servers` (every connected server's name) and the catalog's `entries`. */
export function overviewSection(
  servers: readonly string[],
  entries: readonly CatalogEntry[],
): string {
  const counts = new Map<string, number>(servers.map((name) => [name, 0]));
  for (const entry of entries) counts.set(entry.server, (counts.get(entry.server) ?? 0) + 1);
  const lines = [...counts].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
    .map(([name, count]) => `- ${name}: ${count} ${count === 1 ? "tool" : "tools"}`);
  return `MCP tools from the MCP servers configured for this run: ${entries.length} tools, ` +
    `too many to list here. Find the ones you need with ${SEARCH_TOOL_NAME}: say in a few words ` +
    'what you want to do, and put the names you choose in its "load" list; loaded tools become ' +
    "callable from your next request. Searching and loading do not contact the server.\n" +
    lines.join("\n");
}
