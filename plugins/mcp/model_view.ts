/**
 * What the model sees of the run's MCP tools, as the plugin's hooks: the system-message
 * section (every tool listed, or in search mode the servers and their counts), the tool list
 * (`load_mcp_tool` or `search_mcp_tools`, then the loaded definitions; every definition with
 * `--mcp-eager`), the note of list changes, and the lookup of a called name. Search mode is
 * decided whenever a system message is built (start, resume, `/clear`), so the system message
 * and the tools offered with it always agree.
 *
 * @module
 */
import { type PluginHooks, toolDefinition, type ToolLookup } from "../../core/mod.ts";
import { type CatalogueMode, catalogueView } from "./catalogue_mode.ts";
import { instructionsSection } from "./instructions.ts";
import { createLoadTool, LOAD_TOOL_NAME } from "./load_tool.ts";
import type { McpRun } from "./mcp_run.ts";
import { overviewSection } from "./server_overview.ts";
import { createSearchTool, SEARCH_TOOL_NAME } from "./search_tool.ts";
import { ToolIndex } from "./tool_index.ts";

/** How the run shows its tools. */
export interface ViewSettings {
  eager: boolean;
  catalogue: { mode: CatalogueMode; budget: number };
  /** Each connected server's name. */
  servers: readonly string[];
  /** Each server's `instructions`, by name. */
  instructions: ReadonlyMap<string, string>;
}

/** The hooks of the model's view of `run`. */
export function modelView(
  run: McpRun,
  settings: ViewSettings,
): Pick<PluginHooks, "systemPrompt" | "toolDefinitions" | "requestNote" | "lookupTool"> {
  const { eager, catalogue } = settings;
  const loaded = run.tools.loaded;
  const catalog = () => run.tools.catalog;
  const loadTool = createLoadTool(catalog, loaded);
  const index = new ToolIndex();
  const searchTool = createSearchTool(catalog, loaded, index);
  const loadDefinition = toolDefinition(loadTool);
  const searchDefinition = toolDefinition(searchTool);
  // Decided with each system message (start, resume, /clear); until the first, by the mode.
  let search = !eager && catalogue.mode === "search";
  const loadHint = (name: string) =>
    search
      ? `call ${SEARCH_TOOL_NAME} with {"load": [${JSON.stringify(name)}]} first`
      : `call ${LOAD_TOOL_NAME} with this name first`;
  return {
    // Read at start and on resume: the listing as it stands then, so no note is owed.
    systemPrompt() {
      run.told();
      const entries = catalog().entries;
      // Eager loading puts every definition in the tool list, so only the instructions remain.
      const view = eager ? undefined : catalogueView(catalogue.mode, catalogue.budget, entries);
      search = view?.search === true;
      // Built while the model reads the first request, the index is ready for its first search.
      if (search) void index.warm(entries);
      const parts = [
        view === undefined
          ? undefined
          : view.search
          ? overviewSection(settings.servers, entries)
          : view.listing,
        instructionsSection(settings.instructions),
      ].filter((part) => part !== undefined);
      return parts.length > 0 ? parts.join("\n\n") : undefined;
    },
    toolDefinitions() {
      const definitions = run.tools.loadedDefinitions();
      if (eager) return definitions;
      return [search ? searchDefinition : loadDefinition, ...definitions];
    },
    requestNote: () => run.note(search ? SEARCH_TOOL_NAME : LOAD_TOOL_NAME),
    lookupTool(name): ToolLookup | undefined {
      // Both stay callable whatever the mode: a resumed conversation may use either.
      if (name === LOAD_TOOL_NAME) return { kind: "tool", tool: loadTool };
      if (name === SEARCH_TOOL_NAME) return { kind: "tool", tool: searchTool };
      const tool = run.tools.tool(name);
      if (!tool) {
        const gone = run.goneText(name);
        return gone === undefined ? undefined : { kind: "not-loaded", message: gone };
      }
      if (loaded.has(name)) return { kind: "tool", tool };
      return { kind: "not-loaded", message: `${name} is not loaded; ${loadHint(name)}` };
    },
  };
}
