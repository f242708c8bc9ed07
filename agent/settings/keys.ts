/**
 * How each setting meets the command line: the parsed-flag attribute it fills (the camelCase
 * name commander gives `--max-turns`, a plugin's `--sandbox-network`, ...) and the conversions
 * between a settings value and a flag value (`tools` is a list in the file, `a,b` on the
 * command line). A setting fills its flag only when the flag was not given and its variable
 * not set, so flags > environment > project > user > defaults.
 *
 * @module
 */
import { LEAF_KEYS, type Settings } from "./schema.ts";

/** One setting's link to a parsed-flag attribute. */
export interface SettingAttribute {
  /** The dotted settings key. */
  key: string;
  /** The attribute in the parsed flags. */
  attribute: string;
  /** The flag value for a settings value. */
  toFlag(value: unknown): unknown;
  /** The settings value for a flag value (what `hel config list` shows for a flag or default). */
  fromFlag(value: unknown): unknown;
  /** A variable that wins over the files for a setting with no flag of its own. */
  env?: string;
}

const same = (value: unknown) => value;

function link(
  key: string,
  attribute: string,
  toFlag: (value: unknown) => unknown = same,
  fromFlag: (value: unknown) => unknown = same,
): SettingAttribute {
  return { key, attribute, toFlag, fromFlag };
}

/**
 * Every setting but the permission rules, which are not flags: they reach the run whole
 * (`RunSettings.permissions`), user and project rules together.
 */
export const SETTING_ATTRIBUTES: readonly SettingAttribute[] = [
  link("model", "model"),
  link("baseUrl", "baseUrl"),
  // No flag: the attribute carries the name to the key lookup and to the child environment.
  link("apiKeyEnv", "apiKeyEnv"),
  link("access", "access"),
  link(
    "tools",
    "tools",
    (list) => (list as string[]).join(","),
    (text) => typeof text === "string" ? text.split(",").map((name) => name.trim()) : text,
  ),
  // `--context-file` becomes repeatable (a list, or false for none); a list is set already.
  link(
    "contextFiles",
    "contextFile",
    (list) => (list as string[]).length === 0 ? false : list,
    (value) => value === false ? [] : typeof value === "string" ? [value] : value,
  ),
  link("maxTurns", "maxTurns"),
  link("timeout", "timeout"),
  link("maxOutputTokens", "maxOutputTokens"),
  link("stream", "stream"),
  link("compaction.enabled", "compaction"),
  link("compaction.contextWindow", "contextWindow"),
  link("compaction.compactAt", "compactAt"),
  link("compaction.keepRecent", "keepRecent"),
  link("sandbox.mode", "sandbox"),
  link("sandbox.network", "sandboxNetwork"),
  link("sandbox.read", "sandboxRead"),
  link("sandbox.env", "sandboxEnv"),
  link("sandbox.allowGitWrites", "allowGitWrites"),
  link("sandbox.processes", "sandboxProcesses", String, (text) => text && Number(text)),
  link("outputFormat", "outputFormat"),
  link("modelInput", "modelInput"),
  // No flag: the MCP plugin reads it for `hel mcp login`; HEL_BROWSER wins over the file.
  { ...link("mcp.browser", "mcpBrowser"), env: "HEL_BROWSER" },
];

/** The permission rule keys, in the order deny beats ask beats allow is explained. */
export const PERMISSION_KEYS = ["permissions.allow", "permissions.ask", "permissions.deny"];

/** The value at a dotted key (`compaction.keepRecent`) of a settings object. */
export function settingAt(settings: Settings | undefined, key: string): unknown {
  let here: unknown = settings;
  for (const part of key.split(".")) {
    if (here === null || typeof here !== "object") return undefined;
    here = (here as Record<string, unknown>)[part];
  }
  return here;
}

/** Every dotted key a settings file may set (groups and their keys). */
export function knownKey(key: string): boolean {
  return LEAF_KEYS.includes(key) || LEAF_KEYS.some((leaf) => leaf.startsWith(`${key}.`));
}

/** A copy of `settings` without the values at these dotted keys. */
export function withoutKeys(settings: Settings, keys: readonly string[]): Settings {
  const copy = structuredClone(settings) as Record<string, unknown>;
  for (const key of keys) {
    const parts = key.split(".");
    const last = parts.pop()!;
    const parent = parts.reduce<Record<string, unknown> | undefined>(
      (here, part) => here?.[part] as Record<string, unknown> | undefined,
      copy,
    );
    if (parent) delete parent[last];
  }
  return copy as Settings;
}
