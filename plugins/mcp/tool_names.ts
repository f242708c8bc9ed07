/**
 * Model-facing names of MCP tools: `mcp__<server>__<tool>`, with characters model APIs refuse
 * replaced. A name that would be over 64 characters, or that two tools would share once
 * sanitised (`a.b` and `a_b`), or that another tool already has, is not dropped: the tool gets a
 * shortened name ending in a short hash of the server's and the tool's own names, as Codex
 * does (`mcp__t__a_b_3f9c0e12ab45`). The hash depends on nothing else, so the same listing gives
 * the same names on every run and a resumed session finds its tools under the names it used.
 * The `mcp__<server>__` start is always kept, so a permission rule `mcp__github__*` covers them.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { codePointLength, headChars } from "../../core/mod.ts";

/** Tool names longer than this are refused by model APIs (Bedrock among them). */
export const MAX_TOOL_NAME = 64;
/** Hex characters of the hash that ends a shortened name (Codex's 12). */
export const NAME_HASH_CHARS = 12;

/** The sanitised name: characters outside `[A-Za-z0-9_-]` become `_`. */
export function modelName(server: string, tool: string): string {
  // By code point (the u flag): an emoji is one character and becomes one "_", not two.
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/gu, "_")}`;
}

/** A tool to name: its server and its own name. */
export interface NameRequest {
  server: string;
  toolName: string;
}

/** Why a tool has a hashed name rather than its sanitised one. */
export type Renamed = "long" | "shared" | "taken";

/** The name given to a tool, or why it cannot have one. */
export type NameResult =
  | { ok: true; fullName: string; renamed?: Renamed }
  | { ok: false; reason: string };

/**
 * Names every tool of `tools` (in their order). A tool keeps its sanitised name when that fits,
 * no other tool would have it and no registered tool (`reserved`) has it; when two tools would
 * share a name and one of them is written exactly so (`a_b` beside `a.b`), that one keeps it, so
 * adding a look-alike tool never renames the tool it looks like. Every other tool gets a hashed
 * name. A tool the server lists twice under one name cannot be told apart, so has none.
 */
export function assignNames(
  tools: readonly NameRequest[],
  reserved: ReadonlySet<string>,
): NameResult[] {
  const results: (NameResult | undefined)[] = tools.map(() => undefined);
  const identity = (tool: NameRequest) => `${tool.server}\u0000${tool.toolName}`;
  const listed = new Map<string, number>();
  for (const tool of tools) listed.set(identity(tool), (listed.get(identity(tool)) ?? 0) + 1);
  const byBase = new Map<string, number[]>();
  tools.forEach((tool, index) => {
    if ((listed.get(identity(tool)) ?? 0) > 1) {
      results[index] = {
        ok: false,
        reason: `the server lists ${JSON.stringify(tool.toolName)} more than once, so a call ` +
          "could not say which one it means",
      };
      return;
    }
    const room = MAX_TOOL_NAME - codePointLength(`mcp__${tool.server}__`) - 1 - NAME_HASH_CHARS;
    if (room < 1) {
      results[index] = {
        ok: false,
        reason: `the server's name ${tool.server} is too long for its tools' names to fit ` +
          `${MAX_TOOL_NAME} characters; name the server with at most ${
            codePointLength(tool.server) + room - 1
          } characters`,
      };
      return;
    }
    const base = modelName(tool.server, tool.toolName);
    byBase.set(base, [...byBase.get(base) ?? [], index]);
  });
  const used = new Set<string>();
  const hashed: { index: number; why: Renamed }[] = [];
  for (const [base, indexes] of byBase) {
    const exact = indexes.filter((i) => base === `mcp__${tools[i]!.server}__${tools[i]!.toolName}`);
    const keeper = indexes.length === 1 ? indexes[0] : exact.length === 1 ? exact[0] : undefined;
    for (const index of indexes) {
      if (codePointLength(base) > MAX_TOOL_NAME) hashed.push({ index, why: "long" });
      else if (index !== keeper) hashed.push({ index, why: "shared" });
      else if (reserved.has(base)) hashed.push({ index, why: "taken" });
      else {
        used.add(base);
        results[index] = { ok: true, fullName: base };
      }
    }
  }
  // In the order of the servers' and tools' own names, so that the rare second attempt below
  // goes to the same tool on every run, whatever order the servers listed them in.
  hashed.sort((a, b) => compare(identity(tools[a.index]!), identity(tools[b.index]!)));
  for (const { index, why } of hashed) {
    const tool = tools[index]!;
    for (let attempt = 0;; attempt++) {
      const fullName = hashedName(tool, attempt === 0 ? "" : `\u0000${attempt}`);
      if (used.has(fullName) || reserved.has(fullName)) continue;
      used.add(fullName);
      results[index] = { ok: true, fullName, renamed: why };
      break;
    }
  }
  return results.map((result) => result!);
}

/** `mcp__<server>__<as much of the sanitised name as fits>_<hash>`. */
function hashedName(tool: NameRequest, salt: string): string {
  const hash = createHash("sha256").update(`${tool.server}\u0000${tool.toolName}${salt}`)
    .digest("hex").slice(0, NAME_HASH_CHARS);
  const prefix = `mcp__${tool.server}__`;
  const sanitised = modelName(tool.server, tool.toolName).slice(prefix.length);
  const room = MAX_TOOL_NAME - codePointLength(prefix) - 1 - NAME_HASH_CHARS;
  return `${prefix}${headChars(sanitised, room)}_${hash}`;
}

/** Why a tool's name is hashed, as `hel mcp list` and the trace say it. */
export function renamedText(renamed: Renamed, server: string, toolName: string): string {
  const base = modelName(server, toolName);
  switch (renamed) {
    case "long":
      return `its name would be ${codePointLength(base)} characters, over the ${MAX_TOOL_NAME} ` +
        "model APIs accept";
    case "shared":
      return `another tool would also be ${base}`;
    case "taken":
      return `${base} is already the name of another tool`;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
