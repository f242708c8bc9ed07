/**
 * `hel plugins list`: each plugin of `deno.json` with its description, the tools it adds and
 * what it does during a run, in words rather than its hook names.
 *
 * @module
 */
import { INTERCEPTION_POINTS } from "../core/plugin.ts";
import type { InterceptionPoint } from "../core/plugin_hooks.ts";
import type { LoadedPlugin } from "../agent/plugin_loader.ts";

/**
 * What each interception point means to the person running hel. Every point has its words, so
 * a new hook cannot reach the listing as a bare name; `setup`, which every plugin with tools
 * has, is said by the tools line.
 */
const POINT_WORDS: Record<InterceptionPoint, string> = {
  ready: "prepares once every plugin has started",
  systemPrompt: "adds a section to the system message",
  environmentLines: "adds lines to the system message's Environment block",
  toolDefinitions: "offers extra tool definitions with each request",
  requestNote: "tells the model what changed before a request",
  chatCommands: "adds commands to the chat",
  lookupTool: "provides tools on demand",
  beforeToolCall: "checks tool calls before they run (and may block them)",
  afterToolCall: "sees tool results, and may change them",
  afterCompaction: "adds messages after the conversation is compacted",
  saveState: "keeps its state in the session",
  restoreState: "restores its state when a session is resumed",
  observe: "watches the run's events",
  status: "reports its status (/status, /mcp)",
  shutdown: "cleans up when hel exits",
};

/** Where the lines after the first of a field start. */
const INDENT = " ".repeat(13);

/** The listing, one block per plugin, in `deno.json` order. */
export function formatPluginList(plugins: readonly LoadedPlugin[]): string {
  if (plugins.length === 0) return "No plugins are declared in deno.json (hel.plugins).\n";
  return plugins.map((entry) => {
    const { plugin } = entry;
    // The run's hooks come from setup, so the listing shows the ones the plugin declares.
    const used = new Set<string>(plugin.hooks ?? []);
    const keeps = used.has("saveState") && used.has("restoreState");
    const does = INTERCEPTION_POINTS.flatMap((point) =>
      point === "setup" || !used.has(point) || (keeps && point === "restoreState")
        ? []
        : keeps && point === "saveState"
        ? ["keeps its state in the session, restored when the session is resumed"]
        : [POINT_WORDS[point]]
    );
    const tools = plugin.toolNames ?? [];
    const commands = (plugin.commands ?? []).map((c) => `hel ${c.name} ${c.usage}`.trim());
    const flags = (plugin.options ?? []).map((o) => o.flags.split(" ")[0]);
    return [
      `${plugin.name}  ${plugin.description}`,
      `  module:    ${entry.specifier}`,
      `  tools:     ${tools.length > 0 ? tools.join(", ") : "(none)"}`,
      `  does:      ${does.length > 0 ? does.join(`\n${INDENT}`) : "(nothing else)"}`,
      ...(flags.length > 0 ? [`  flags:     ${flags.join(", ")}`] : []),
      ...(commands.length > 0 ? [`  commands:  ${commands.join(", ")}`] : []),
    ].join("\n");
  }).join("\n\n") + "\n";
}
