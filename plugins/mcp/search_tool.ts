/**
 * `search_mcp_tools`: the model's way to MCP tools in search mode, when the catalog is too
 * large to list in the system message (catalogue_mode.ts). A query returns the best matches of
 * the BM25 index (tool_index.ts) with their descriptions and parameter names; `load` loads
 * chosen ones through the same path as `load_mcp_tool`, so a search and its load can be one
 * call. Handled inside hel (no server is contacted), so it is a `read` tool.
 *
 * @module
 */
import { clipChars, defineTool, isRecord, type Tool, type ToolResult, z } from "../../core/mod.ts";
import { escapeControlCharacters } from "../../kit/mod.ts";
import description from "./search_mcp_tools.txt" with { type: "text" };
import { type Catalog, type CatalogEntry, listingLine } from "./catalog.ts";
import { loadTools } from "./load_tool.ts";
import { ToolIndex } from "./tool_index.ts";

/** The search tool's name. */
export const SEARCH_TOOL_NAME = "search_mcp_tools";
/** Matches a search returns at most. */
export const SEARCH_RESULTS = 8;
/** Characters of a query that are searched; the rest is dropped. */
const QUERY_CHARS = 500;
/** Parameter names shown per match at most. */
const SHOWN_PARAMETERS = 8;

const parameters = z.object({
  query: z.string().optional().describe(
    'What you want to do, in a few words, e.g. "create a directory"',
  ),
  load: z.array(z.string()).optional().describe(
    'Full names of MCP tools to load now, e.g. ["mcp__fs__create_directory"]',
  ),
});

/**
 * Creates the tool over the catalog as it stands at each call and the run's loaded names. The
 * index (`index`, which the caller may warm ahead) is complete from the first search and
 * follows the catalog's changes after that.
 */
export function createSearchTool(
  catalog: () => Catalog,
  loaded: Set<string>,
  index = new ToolIndex(),
): Tool {
  return defineTool({
    name: SEARCH_TOOL_NAME,
    description: description.trim(),
    parameters,
    toolClass: "read",
    category: "other",
    run: (args) => {
      const now = catalog();
      const query = clipChars((args.query ?? "").trim(), QUERY_CHARS);
      const load = args.load ?? [];
      if (query === "" && load.length === 0) {
        return Promise.resolve({
          ok: false,
          text: `${SEARCH_TOOL_NAME} needs a "query" saying what you want to do (e.g. ` +
            '{"query": "create a directory"}), or a "load" list of full tool names',
        });
      }
      const parts: string[] = [];
      let ok = true;
      if (query !== "") {
        index.sync(now.entries);
        parts.push(matchesText(query, index.search(query, SEARCH_RESULTS), now, loaded));
      }
      if (load.length > 0) {
        const result: ToolResult = loadTools(
          load,
          now,
          loaded,
          `find the right name with ${SEARCH_TOOL_NAME} {"query": ...}`,
        );
        ok = result.ok;
        parts.push(result.text);
      }
      return Promise.resolve({ ok, text: parts.join("\n\n") });
    },
  });
}

function matchesText(
  query: string,
  matches: readonly { entry: CatalogEntry }[],
  catalog: Catalog,
  loaded: ReadonlySet<string>,
): string {
  const total = catalog.entries.length;
  if (matches.length === 0) {
    return `No MCP tool matches ${echoed(query)} (of ${total}); try other words, ` +
      "e.g. the thing you want to act on and the action";
  }
  const lines = matches.map(({ entry }) => {
    const names = Object.keys(parametersOf(entry)).slice(0, SHOWN_PARAMETERS)
      .map((name) => escapeControlCharacters(clipChars(name, 40)));
    const shown = names.length > 0 ? ` [parameters: ${names.join(", ")}]` : "";
    return `${listingLine(entry)}${shown}${loaded.has(entry.fullName) ? " (loaded)" : ""}`;
  });
  return `The ${matches.length} best of ${total} MCP tools for ${echoed(query)}, ` +
    `best first (load what you need with "load"):\n${lines.join("\n")}`;
}

/**
 * The model's query quoted back to it: JSON escapes C0 controls but leaves C1, bidi and
 * invisible ones, which could make the echo read other than it is.
 */
function echoed(query: string): string {
  return escapeControlCharacters(JSON.stringify(query));
}

function parametersOf(entry: CatalogEntry): Record<string, unknown> {
  const properties = entry.inputSchema.properties;
  return isRecord(properties) ? properties : {};
}
