/**
 * `load_mcp_tool`: adds listed MCP tools to the tool list from the next request. It is handled
 * entirely inside hel (no server is contacted), so it is a `read` tool and works read-only.
 *
 * @module
 */
import { clipChars, defineTool, type Tool, type ToolResult, z } from "../../core/mod.ts";
import { escapeControlCharacters } from "../../kit/mod.ts";
import description from "./load_mcp_tool.txt" with { type: "text" };
import type { Catalog } from "./catalog.ts";

/** The loading tool's name. */
export const LOAD_TOOL_NAME = "load_mcp_tool";
/** Characters of an unknown name echoed back (real names have at most 64). */
const MAX_ECHOED = 200;

// Not strict: other arguments are ignored, as they always were.
const parameters = z.object({
  names: z.array(z.string()).describe(
    "Full MCP tool names from the system message, e.g. mcp__notes__search",
  ),
});

/**
 * Creates the tool over a catalog (or the catalog as it stands at each call, when servers'
 * list changes rebuild it) and the run's loaded names (in load order).
 */
export function createLoadTool(catalog: Catalog | (() => Catalog), loaded: Set<string>): Tool {
  const current = typeof catalog === "function" ? catalog : () => catalog;
  return defineTool({
    name: LOAD_TOOL_NAME,
    description: description.trim(),
    parameters,
    toolClass: "read",
    category: "other",
    run: (args) => {
      if (args.names.length === 0) {
        return Promise.resolve({
          ok: false,
          text: 'load_mcp_tool needs a non-empty "names" list of MCP tool names from the system ' +
            'message, e.g. {"names": ["mcp__notes__search"]}',
        });
      }
      return Promise.resolve(loadTools(args.names, current(), loaded));
    },
  });
}

/**
 * Loads `given` (names of `catalog`'s tools) into `loaded`: a line per name saying what came of
 * it, and ok when at least one is usable. Shared by `load_mcp_tool` and `search_mcp_tools`;
 * `elsewhere` says where the model finds right names (the system message's list by default).
 */
export function loadTools(
  given: readonly string[],
  catalog: Catalog,
  loaded: Set<string>,
  elsewhere = "use a name from the MCP tool list in the system message",
): ToolResult {
  const byName = new Map(catalog.entries.map((entry) => [entry.fullName, entry]));
  const names = [...new Set(given)];
  let usable = 0;
  const lines = names.map((name) => {
    if (loaded.has(name)) {
      usable++;
      return `${name}: already loaded`;
    }
    const entry = byName.get(name);
    if (entry) {
      // The schema is compiled now, not at listing: a tool hel cannot check is not offered.
      const problem = entry.compileCheck?.();
      if (problem !== undefined) {
        return `${name}: cannot be loaded: ${problem}, so hel cannot check calls to it; ` +
          "use another tool, or tell the user";
      }
      loaded.add(name);
      usable++;
      return `${name}: loaded; callable from the next request`;
    }
    // Not a listed name: the model's own text, echoed bounded and with controls escaped.
    return `${escapeControlCharacters(clipChars(name, MAX_ECHOED))}: ` +
      unknownText(name, catalog, elsewhere);
  });
  return { ok: usable > 0, text: lines.join("\n") };
}

function unknownText(name: string, catalog: Catalog, elsewhere: string): string {
  const excluded = catalog.excluded.find((item) =>
    name === `mcp__${item.server}__${item.toolName}` || name === item.toolName
  );
  if (excluded) return `cannot be loaded: ${excluded.reason}`;
  // Models often drop the prefix or the server part; point at the listed name.
  const bare = name.replace(/^mcp__/, "").split("__").pop() ?? name;
  const guesses = catalog.entries.filter((entry) =>
    entry.toolName === bare || entry.fullName.endsWith(`__${bare}`) ||
    entry.fullName.toLowerCase() === name.toLowerCase()
  );
  const hint = guesses.length > 0
    ? `; did you mean ${guesses.slice(0, 3).map((entry) => entry.fullName).join(" or ")}?`
    : `; ${elsewhere}`;
  return `unknown MCP tool${hint}`;
}
