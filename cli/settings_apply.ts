/**
 * The settings files on the command line: every setting whose flag was not given and whose
 * variable is not set fills that flag, from the project file (its widening parts only once
 * trusted) or else the person's file, so flags > environment > project > user > defaults. The
 * permission rules of both files reach the run as `permissions`, each naming its file. What
 * each value is and where it came from is kept for `hel config list`.
 *
 * @module
 */
import type { Command, Option } from "@commander-js/extra-typings";
import type { LoadedPlugin } from "../agent/plugin_loader.ts";
import type { PermissionRule, PermissionRules } from "../core/permissions.ts";
import type { PluginContext } from "../core/plugin.ts";
import { UsageError } from "../core/usage_error.ts";
import { readSettingsFiles, type SettingsFile } from "../agent/settings/files.ts";
import {
  PERMISSION_KEYS,
  SETTING_ATTRIBUTES,
  settingAt,
  type SettingAttribute,
  withoutKeys,
} from "../agent/settings/keys.ts";
import type { Settings } from "../agent/settings/schema.ts";
import { parseSettings } from "../agent/settings/parse.ts";
import {
  type GateOptions,
  gateProjectSettings,
  summarizeWidening,
} from "../agent/settings/trust.ts";
import {
  type LowerSettings,
  splitProjectSettings,
  type WideningPart,
} from "../agent/settings/widening.ts";
import type { TrustSummary } from "../core/trust.ts";
import { surroundings } from "../kit/surroundings.ts";

// deno-lint-ignore no-explicit-any
type AnyCommand = Command<any, any, any>;

/** One setting's effective value and where it came from, for `hel config list`. */
export interface SettingValue {
  key: string;
  /** The value as a settings file writes it; undefined when nothing sets it. */
  value: unknown;
  /** `flag --model`, `env HEL_MODEL`, `project <path>`, `user <path>` or `default`. */
  origin: string;
}

/** The settings of this invocation. */
export interface AppliedSettings {
  values: SettingValue[];
  permissions: PermissionRules;
  /** The project file's widening parts left out because it is not trusted. */
  skipped: WideningPart[];
  project?: SettingsFile;
  user?: SettingsFile;
}

/** A path as shown to the person: the home folder (`$HOME` unless given) as `~`. */
export function shownPath(path: string, home = surroundings().env("HOME")): string {
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/**
 * Reads both settings files and fills `program`'s unset flags from them. A file with mistakes
 * is a usage error listing all of them; a project file that must not be read is warned about.
 */
export async function applySettings(
  program: AnyCommand,
  plugins: readonly LoadedPlugin[],
  context: PluginContext,
  gate: GateOptions,
): Promise<AppliedSettings> {
  const files = await readSettingsFiles(context.helHome, context.project, knownTools(plugins));
  if (files.problems.length > 0) throw new UsageError(files.problems.join("\nhel: "));
  for (const warning of files.warnings) gate.warn?.(warning);
  const flags = flagValues(program);
  const { user, project } = files;
  // What a flag or variable sets, the project file cannot change: nothing to ask or warn about.
  const given = SETTING_ATTRIBUTES.filter((link) => flags.get(link).given).map((link) => link.key);
  const applicable = project && { ...project, settings: withoutKeys(project.settings, given) };
  const gated = applicable
    ? await gateProjectSettings(context, applicable, lowerSettings(flags, user?.settings), gate)
    : undefined;
  const layers: [SettingsFile, Settings][] = [
    ...(project && gated ? [[project, gated.settings] as [SettingsFile, Settings]] : []),
    ...(user ? [[user, user.settings] as [SettingsFile, Settings]] : []),
  ];
  const values: SettingValue[] = [];
  for (const link of SETTING_ATTRIBUTES) {
    const flag = flags.get(link);
    const fromFile = layers.find(([, settings]) => settingAt(settings, link.key) !== undefined);
    if (flag.given || !fromFile) {
      values.push({ key: link.key, value: flag.value, origin: flag.origin });
      continue;
    }
    const [file, settings] = fromFile;
    const value = settingAt(settings, link.key);
    program.setOptionValueWithSource(link.attribute, link.toFlag(value), "config");
    values.push({ key: link.key, value, origin: `${file.scope} ${shownPath(file.path)}` });
  }
  const permissions = permissionRules(layers);
  for (const key of PERMISSION_KEYS) {
    const effect = key.slice("permissions.".length) as keyof PermissionRules;
    const origins = layers.filter(([, settings]) => (settings.permissions?.[effect] ?? []).length)
      .map(([file]) => `${file.scope} ${shownPath(file.path)}`);
    values.push({
      key,
      value: permissions[effect].map((rule) => rule.rule),
      origin: origins.length === 0 ? "default" : origins.join(" + "),
    });
  }
  const rules = Object.values(permissions).some((list) => list.length > 0);
  if (rules) program.setOptionValueWithSource("permissions", permissions, "config");
  return { values, permissions, skipped: gated?.skipped ?? [], user, project };
}

/** The rules of every file, the project's first, each naming its file. */
function permissionRules(layers: [SettingsFile, Settings][]): PermissionRules {
  const effect = (name: keyof PermissionRules): PermissionRule[] =>
    layers.flatMap(([file, settings]) =>
      (settings.permissions?.[name] ?? []).map((rule) => ({ rule, source: shownPath(file.path) }))
    );
  return { allow: effect("allow"), ask: effect("ask"), deny: effect("deny") };
}

/** The tools `tools` may name: those of the plugin that owns `--tools`. */
export function knownTools(plugins: readonly LoadedPlugin[]): readonly string[] | undefined {
  const owner = plugins.find(({ plugin }) =>
    (plugin.options ?? []).some((option) => option.flags.startsWith("--tools "))
  );
  return owner?.plugin.toolNames;
}

/** A flag's value now: given on the command line or by its variable, or its default. */
interface FlagValue {
  given: boolean;
  value: unknown;
  origin: string;
  /** The default as a settings value (what lies under the files). */
  fallback: unknown;
}

function flagValues(program: AnyCommand) {
  const options = program.options as readonly Option[];
  return {
    get(link: SettingAttribute): FlagValue {
      const mine = options.filter((option) => option.attributeName() === link.attribute);
      const source = program.getOptionValueSource(link.attribute);
      const current = program.getOptionValue(link.attribute);
      // `--no-stream` alone defaults to true, which commander keeps on the command, not the option.
      const onlyNegated = mine.length > 0 && mine.every((option) => option.negate);
      const fallback = link.fromFlag(
        mine.find((option) => option.defaultValue !== undefined)?.defaultValue ??
          (onlyNegated ? true : undefined),
      );
      if (source === "cli") {
        const option = mine.find((o) => o.negate === (current === false)) ?? mine[0];
        return {
          given: true,
          value: link.fromFlag(current),
          origin: `flag ${option?.long}`,
          fallback,
        };
      }
      if (source === "env") {
        const variable = mine.find((option) => option.envVar)?.envVar;
        return { given: true, value: link.fromFlag(current), origin: `env ${variable}`, fallback };
      }
      // A setting without a flag whose variable is set: the variable wins, as a flag's would.
      const variable = link.env && surroundings().env(link.env);
      if (mine.length === 0 && link.env && variable) {
        return { given: true, value: variable, origin: `env ${link.env}`, fallback };
      }
      return { given: false, value: fallback, origin: "default", fallback };
    },
  };
}

/** What lies under the project file: the person's file over the defaults. */
function lowerSettings(
  flags: ReturnType<typeof flagValues>,
  user: Settings | undefined,
): LowerSettings {
  const value = <T>(key: string, otherwise: T): T => {
    const link = SETTING_ATTRIBUTES.find((link) => link.key === key)!;
    return (settingAt(user, key) ?? flags.get(link).fallback ?? otherwise) as T;
  };
  return {
    baseUrl: value("baseUrl", ""),
    apiKeyEnv: user?.apiKeyEnv,
    access: value("access", "confirm"),
    tools: value("tools", []),
    sandbox: {
      mode: value("sandbox.mode", "on"),
      network: value("sandbox.network", "on"),
      read: value("sandbox.read", []),
      env: value("sandbox.env", []),
      allowGitWrites: value("sandbox.allowGitWrites", false),
      processes: value("sandbox.processes", 512),
    },
  };
}

/**
 * How `hel trust settings` checks the project's settings file (an invalid one is never
 * trusted) and what it shows of it: the parts that widen what the person's file and the
 * defaults give.
 */
export async function settingsReader(
  program: AnyCommand,
  plugins: readonly LoadedPlugin[],
  context: PluginContext,
) {
  const tools = knownTools(plugins);
  // A broken file of the person's own is reported by every run; here it only adds nothing.
  const { user } = await readSettingsFiles(context.helHome, context.project, tools);
  const lower = lowerSettings(flagValues(program), user?.settings);
  return {
    check(bytes: Uint8Array, path: string): string | undefined {
      const parsed = parseSettings(bytes, path, tools, "project");
      return parsed.ok ? undefined : parsed.problems.join("\nhel: ");
    },
    summarize(bytes: Uint8Array, path: string): TrustSummary | undefined {
      const parsed = parseSettings(bytes, path, tools, "project");
      if (!parsed.ok) return undefined;
      return summarizeWidening(
        splitProjectSettings(parsed.settings, lower, context.project).widening,
      );
    },
  };
}
