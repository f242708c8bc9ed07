/**
 * The tool registry of a run: the tools plugins register, the definitions sent with each
 * request, and the lookup of a called name — registered tools first, then the plugins that
 * own names they did not register (MCP).
 *
 * @module
 */
import type { Tool, ToolDefinition, ToolLookup } from "./types.ts";

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The definition the model receives for a tool. */
export function toolDefinition(tool: Tool): ToolDefinition {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

/** What the registry asks the plugins (the plugin driver in a run). */
export interface PluginTools {
  /** Definitions that change during a run, after the registered tools'. */
  toolDefinitions(): ToolDefinition[];
  /** The first plugin's answer for a name nobody registered. */
  lookupTool(name: string): ToolLookup | undefined;
}

const NO_PLUGINS: PluginTools = { toolDefinitions: () => [], lookupTool: () => undefined };

/** Registered tools in registration order, plus what the plugins offer per request. */
export class ToolRegistry {
  readonly #tools = new Map<string, Tool>();
  readonly #plugins: PluginTools;

  constructor(plugins: PluginTools = NO_PLUGINS) {
    this.#plugins = plugins;
  }

  /** Adds a tool; refuses malformed and duplicate names. */
  register(tool: Tool): void {
    if (!TOOL_NAME.test(tool.name)) {
      throw new TypeError(`Cannot register tool "${tool.name}": names use [a-zA-Z0-9_-], 1-64`);
    }
    if (this.#tools.has(tool.name)) {
      throw new TypeError(`Cannot register tool "${tool.name}": the name is already registered`);
    }
    this.#tools.set(tool.name, tool);
  }

  /** Names of the registered tools, in registration order. */
  names(): string[] {
    return [...this.#tools.keys()];
  }

  /** The definitions for the next request: registered tools, then the plugins' own. */
  definitions(): ToolDefinition[] {
    return [...[...this.#tools.values()].map(toolDefinition), ...this.#plugins.toolDefinitions()];
  }

  /** The tool a name calls: a registered one, else the first plugin that answers. */
  lookup(name: string): ToolLookup | undefined {
    const registered = this.#tools.get(name);
    return registered ? { kind: "tool", tool: registered } : this.#plugins.lookupTool(name);
  }
}
