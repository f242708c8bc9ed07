/**
 * Reading a plugin's flags typed: each {@link PluginOption} declares how its command-line value
 * is checked and turned into the plugin's value, so a plugin never re-checks `host.flags`.
 *
 * @module
 */
import type { PluginOption } from "./plugin.ts";

/** The key commander files a flag's value under: `--bash-timeout <s>` → `bashTimeout`. */
export function optionKey(option: Pick<PluginOption, "flags">): string {
  const long = option.flags.split(/[ ,|]+/).find((part) => part.startsWith("--")) ?? "";
  return long.replace(/^--(no-)?/, "").replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
}

/**
 * The value of `option` in the parsed flags (its default when absent), through its `parse`;
 * a bad value throws the `UsageError` that `parse` throws.
 */
export function optionValue<T>(
  flags: Readonly<Record<string, unknown>>,
  option: PluginOption<T>,
): T {
  const raw = flags[optionKey(option)] ?? option.default;
  return option.parse ? option.parse(raw) : raw as T;
}

/** `options` from `deno.json` over the plugin's `defaults` (an option left out or undefined keeps its default). */
export function withDefaults<Options extends object>(
  defaults: Options,
  options: Partial<Options> = {},
): Options {
  const given = Object.entries(options).filter(([, value]) => value !== undefined);
  return { ...defaults, ...Object.fromEntries(given) } as Options;
}
