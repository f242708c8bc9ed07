/**
 * A server's `tools` allowlist from `.hel/mcp.json`: reading it, and which of its listed tools
 * are offered. A tool the list does not match is left out quietly (a 1,000-tool server cut to 3
 * must not print 997 warnings; `hel mcp list` and the trace give the count), but an entry that
 * matches none of the listed tools is reported once, since a typo would otherwise silently
 * offer nothing.
 *
 * @module
 */
import { clipChars, editDistance } from "../../core/mod.ts";
import { escapeControlCharacters } from "../../kit/mod.ts";
import type { Node } from "jsonc-parser";
import type { ListedTool } from "./catalog.ts";

/** An allowlist entry that matched none of its server's listed tools. */
export interface UnmatchedEntry {
  server: string;
  entry: string;
  /** How many tools the server listed. */
  listed: number;
  /** Listed names close to the entry (at most three, closest first). */
  closest: string[];
}

/** The tools a server offers after its allowlist, and what the allowlist did. */
export interface FilteredTools {
  kept: ListedTool[];
  /** How many listed tools the allowlist left out. */
  leftOut: number;
  unmatched: UnmatchedEntry[];
}

/**
 * The pattern of one entry: the server's own tool name, where `*` matches any run of
 * characters (also none) and every other character stands for itself — no `?`, `[...]` or
 * `{a,b}`, so a tool name holding those characters can still be written as it is.
 */
export function entryPattern(entry: string): RegExp {
  const parts = entry.split("*").map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, "\\$&"));
  return new RegExp(`^${parts.join("[\\s\\S]*")}$`, "u");
}

/** Applies `allow` (absent: every tool is offered) to one server's listing. */
export function filterTools(
  server: string,
  listed: readonly ListedTool[],
  allow: readonly string[] | undefined,
): FilteredTools {
  if (allow === undefined) return { kept: [...listed], leftOut: 0, unmatched: [] };
  // A repeated entry is one entry: at most one warning for it.
  const patterns = [...new Set(allow)].map((entry) => ({
    entry,
    pattern: entryPattern(entry),
    used: false,
  }));
  const names: string[] = [];
  const kept: ListedTool[] = [];
  for (const tool of listed) {
    const name = toolName(tool);
    if (name === undefined) continue; // nameless: nothing to match, so not asked for
    names.push(name);
    let wanted = false;
    for (const item of patterns) {
      if (item.pattern.test(name)) wanted = item.used = true;
    }
    if (wanted) kept.push(tool);
  }
  const unmatched = patterns.filter((item) => !item.used).map(({ entry }) => ({
    server,
    entry,
    listed: listed.length,
    closest: closestNames(server, entry, names),
  }));
  return { kept, leftOut: listed.length - kept.length, unmatched };
}

/** The warning for an entry that matched nothing: the server, the entry, and what is close. */
export function unmatchedText(item: UnmatchedEntry): string {
  // Names are the server's: cut a long one (some are hundreds of characters) and its controls.
  const quoted = (text: string) =>
    escapeControlCharacters(
      JSON.stringify(clipChars(text, 64)),
    );
  const hints: string[] = [];
  if (item.closest.length > 0) {
    hints.push(`closest listed: ${item.closest.map(quoted).join(", ")}`);
  }
  if (item.entry.startsWith("mcp__")) {
    hints.push(`write the server's own tool name, without "mcp__${item.server}__"`);
  }
  if (/[?[\]{}]/.test(item.entry)) hints.push("only '*' is a wildcard");
  const fix = hints.length > 0 ? ` (${hints.join("; ")})` : "";
  return `.hel/mcp.json: servers.${JSON.stringify(item.server)}.tools entry ${
    quoted(item.entry)
  } matches none of the ${item.listed} tools server ${item.server} lists${fix}; fix or remove it`;
}

function toolName(tool: ListedTool): string | undefined {
  if (tool === null || typeof tool !== "object") return undefined;
  const name = (tool as Record<string, unknown>).name;
  return typeof name === "string" && name !== "" ? name : undefined;
}

/**
 * Listed names near an entry that matched nothing. A wildcard entry is compared by its text
 * before the first `*` (or `?`, `[`, `{`) with the same length of each name ("raed_*" is close
 * to "read_file").
 */
function closestNames(server: string, entry: string, names: readonly string[]): string[] {
  // A model-facing name ("mcp__s__echo") is compared by its tool part.
  const bare = entry.startsWith(`mcp__${server}__`) ? entry.slice(server.length + 7) : entry;
  // Other glob syntax ("read_?") is literal, but its writer meant a wildcard there too.
  const star = bare.search(/[*?[{]/);
  const key = (star < 0 ? bare : bare.slice(0, star)).toLowerCase();
  if (key === "") return [];
  // Two edits catch a swapped pair ("ehco"); a short key would be near every name, so it
  // allows fewer (one or two characters: only an exact match, as a prefix for a wildcard).
  const limit = key.length <= 2 ? 0 : key.length <= 3 ? 1 : key.length <= 9 ? 2 : 3;
  const scored = names.flatMap((name) => {
    const lower = star < 0 ? name.toLowerCase() : name.slice(0, key.length).toLowerCase();
    // Lengths further apart than the limit cannot be close (and a 500-character name is cheap).
    if (Math.abs(lower.length - key.length) > limit) return [];
    const distance = editDistance(key, lower);
    return distance <= limit ? [{ name, distance }] : [];
  });
  scored.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1));
  return [...new Set(scored.map((item) => item.name))].slice(0, 3);
}

/**
 * `tools`: a non-empty list of non-empty strings. An empty list is refused rather than read as
 * "offer nothing" (a server offering nothing is better removed) or "offer all" (that is what
 * leaving the field out means).
 */
export function readTools(
  here: string,
  value: Node,
  report: (node: Node, message: string) => void,
): string[] | undefined {
  const example = '["lookup_port", "read_*"]';
  if (value.type !== "array") {
    report(
      value,
      `${here} must be a list of the server's tool names to offer ('*' matches any run of ` +
        `characters), e.g. ${example}; leave it out to offer every tool`,
    );
    return undefined;
  }
  const children = value.children ?? [];
  if (children.length === 0) {
    report(
      value,
      `${here} is empty, which would offer no tool: list the tools to offer, e.g. ${example}, ` +
        "leave it out to offer every tool, or remove the server",
    );
    return undefined;
  }
  let bad = false;
  children.forEach((child, index) => {
    if (child.type !== "string" || String(child.value).trim() === "") {
      bad = true;
      report(
        child,
        `${here}[${index}] must be a non-empty string naming one of the server's tools, e.g. ` +
          `"lookup_port" or "read_*"`,
      );
    }
  });
  return bad ? undefined : children.map((child) => String(child.value));
}
