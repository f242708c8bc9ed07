/**
 * `hel plugins list`: each plugin of `deno.json` with its description, the tools it adds and
 * the interception points it uses.
 *
 * @module
 */
import { INTERCEPTION_POINTS } from "../core/plugin.ts";
import type { LoadedPlugin } from "../agent/plugin_loader.ts";

/** The listing, one block per plugin, in `deno.json` order. */
export function formatPluginList(plugins: readonly LoadedPlugin[]): string {
  if (plugins.length === 0) return "No plugins are declared in deno.json (hel.plugins).\n";
  return plugins.map((entry) => {
    const { plugin } = entry;
    // The run's hooks come from setup, so the listing shows the ones the plugin declares.
    const used = new Set<string>([...(plugin.setup ? ["setup"] : []), ...(plugin.hooks ?? [])]);
    const points = INTERCEPTION_POINTS.filter((point) => used.has(point));
    const tools = plugin.toolNames ?? [];
    const commands = (plugin.commands ?? []).map((c) => `hel ${c.name} ${c.usage}`.trim());
    const flags = (plugin.options ?? []).map((o) => o.flags.split(" ")[0]);
    return [
      `${plugin.name}  ${plugin.description}`,
      `  module:    ${entry.specifier}`,
      `  tools:     ${tools.length > 0 ? tools.join(", ") : "(none)"}`,
      `  hooks:     ${points.length > 0 ? points.join(", ") : "(none)"}`,
      ...(flags.length > 0 ? [`  flags:     ${flags.join(", ")}`] : []),
      ...(commands.length > 0 ? [`  commands:  ${commands.join(", ")}`] : []),
    ].join("\n");
  }).join("\n\n") + "\n";
}
