/**
 * Loads the plugins `deno.json` declares under `hel.plugins`. Each entry is a module specifier
 * (relative to `deno.json`) or `[specifier, options]`; the module's default export is a
 * factory that returns the plugin.
 *
 * @module
 */
import { errorMessage } from "../core/errors.ts";
import type { Plugin, PluginFactory } from "../core/plugin.ts";
import { UsageError } from "../core/usage_error.ts";

/** One plugin entry of `deno.json`. */
export type PluginEntry = string | [string, Record<string, unknown>];

/** A loaded plugin with the specifier it came from. */
export interface LoadedPlugin {
  specifier: string;
  plugin: Plugin;
}

/** Reads the `hel.plugins` list of a parsed `deno.json`, naming the field on error. */
export function pluginEntries(denoJson: unknown): PluginEntry[] {
  const hel = (denoJson as { hel?: { plugins?: unknown } })?.hel;
  const list = hel?.plugins;
  if (!Array.isArray(list)) {
    throw new UsageError('deno.json: "hel.plugins" must be a list of plugin module paths');
  }
  return list.map((entry, index) => {
    const ok = typeof entry === "string" ||
      (Array.isArray(entry) && entry.length === 2 && typeof entry[0] === "string" &&
        entry[1] !== null && typeof entry[1] === "object");
    if (!ok) {
      throw new UsageError(
        `deno.json: hel.plugins[${index}] must be "path/to/mod.ts" or ["path/to/mod.ts", {options}]`,
      );
    }
    return entry as PluginEntry;
  });
}

/** Imports every entry in order; a module that fails is named in the error. */
export async function loadPlugins(entries: PluginEntry[], base: URL): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  for (const entry of entries) {
    const [specifier, options] = typeof entry === "string" ? [entry, {}] : entry;
    let factory: unknown;
    try {
      factory = (await import(new URL(specifier, base).href)).default;
    } catch (error) {
      throw new UsageError(`cannot load plugin "${specifier}": ${errorMessage(error)}`);
    }
    if (typeof factory !== "function") {
      throw new UsageError(
        `cannot load plugin "${specifier}": its module has no default export factory`,
      );
    }
    let plugin: Plugin;
    try {
      plugin = (factory as PluginFactory)(options);
    } catch (error) {
      // Most often options from deno.json that the plugin refuses: name the plugin.
      throw new UsageError(
        `cannot load plugin "${specifier}": its factory failed: ${errorMessage(error)}`,
      );
    }
    if (!plugin || typeof plugin.name !== "string" || typeof plugin.description !== "string") {
      throw new UsageError(
        `cannot load plugin "${specifier}": the factory must return { name, description, ... }`,
      );
    }
    if (loaded.some((other) => other.plugin.name === plugin.name)) {
      throw new UsageError(`cannot load plugin "${specifier}": the name "${plugin.name}" is taken`);
    }
    loaded.push({ specifier, plugin });
  }
  return loaded;
}
