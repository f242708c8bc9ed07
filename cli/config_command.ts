/**
 * `hel config`: `list` (each setting's effective value and where it came from), `get KEY`
 * (dotted keys such as `compaction.keepRecent`) and `set KEY VALUE [--project]` / `unset KEY`,
 * which change the person's `$HEL_HOME/settings.jsonc` or the project's `.hel/settings.jsonc`
 * keeping comments. A value is checked against the schema before anything is written.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { LoadedPlugin } from "../agent/plugin_loader.ts";
import { checkSettings, nameHint, parseSettings } from "../agent/settings/parse.ts";
import { projectSettingsPath, userSettingsPath } from "../agent/settings/files.ts";
import { knownKey } from "../agent/settings/keys.ts";
import { LEAF_KEYS } from "../agent/settings/schema.ts";
import { ensureHelDir } from "../agent/session/store.ts";
import { errorMessage } from "../core/errors.ts";
import type { PluginContext } from "../core/plugin.ts";
import { UsageError } from "../core/usage_error.ts";
import { editJsoncFile } from "../kit/mod.ts";
import { writeErr, writeOut } from "../kit/output.ts";
import { type AppliedSettings, applySettings, knownTools, shownPath } from "./settings_apply.ts";

// deno-lint-ignore no-explicit-any
type AnyCommand = Command<any, any, any>;

/** Adds `hel config` and its subcommands to `program`. */
export function addConfigCommand(
  program: AnyCommand,
  plugins: readonly LoadedPlugin[],
  setExitCode: (code: number) => void,
  cliContext: () => Promise<PluginContext>,
): void {
  const settings = async () => {
    const context = await cliContext();
    return { context, applied: await applySettings(program, plugins, context, { review: false }) };
  };
  const config = program.command("config")
    .description("show and change settings ($HEL_HOME/settings.jsonc, .hel/settings.jsonc)");
  config.command("list", { isDefault: true })
    .description("each setting's value and where it came from (flag, env, project, user, default)")
    .action(async () => writeOut(formatSettingsList((await settings()).applied)));
  config.command("get")
    .description("print one setting's value (dotted keys, e.g. compaction.keepRecent)")
    .argument("<key>", "the setting")
    .action(async (key) => {
      checkKey(key);
      const value = valueOf((await settings()).applied, key);
      if (value === undefined) {
        writeErr(`hel: ${key} is not set\n`);
        return setExitCode(1);
      }
      writeOut(typeof value === "string" ? `${value}\n` : `${JSON.stringify(value)}\n`);
    });
  const scope = ["--project", "change the project's .hel/settings.jsonc, not yours"] as const;
  config.command("set")
    .description("set a setting in your settings file (or the project's), keeping comments")
    .argument("<key>", "the setting, e.g. model or compaction.keepRecent")
    .argument("<value>", 'JSON when it parses as JSON (50, true, ["a"]), else a string')
    .option(...scope)
    .action(async (key, text, options) => {
      checkKey(key);
      setExitCode(await change(key, parseValue(text), options.project === true));
    });
  config.command("unset")
    .description("remove a setting from your settings file (or the project's)")
    .argument("<key>", "the setting")
    .option(...scope)
    .action(async (key, options) => {
      checkKey(key);
      setExitCode(await change(key, undefined, options.project === true));
    });

  async function change(key: string, value: unknown, project: boolean): Promise<number> {
    const context = await cliContext();
    const path = key.split(".");
    if (value !== undefined) {
      const checked = checkSettings(nested(path, value), knownTools(plugins));
      if (!checked.ok) {
        // A value that is no JSON was taken as a string: say how lists and the like are written.
        const asJson = typeof value === "string"
          ? `\nhel: values are JSON: write a list as '["a", "b"]', false and numbers bare`
          : "";
        throw new UsageError(checked.mistakes.map((m) => m.message).join("\nhel: ") + asJson);
      }
    }
    const file = project ? projectSettingsPath(context.project) : userSettingsPath(context.helHome);
    try {
      if (project) await ensureHelDir(context.project);
      await editJsoncFile(
        project ? context.project : context.helHome,
        file,
        path,
        () => value,
        (edited) => checkEditedFile(file, edited, plugins, project ? "project" : "user"),
      );
    } catch (error) {
      if (error instanceof UsageError) throw error;
      writeErr(`hel: ${errorMessage(error)}\n`);
      return 1;
    }
    const shown = value === undefined ? "removed" : `= ${JSON.stringify(value)}`;
    writeErr(`hel: ${key} ${shown} in ${shownPath(file)}\n`);
    if (project) await noteTrust(context);
    return 0;
  }

  /** After a change to the project file: its widening settings need its new bytes trusted. */
  async function noteTrust(context: PluginContext): Promise<void> {
    const { skipped, project } = await applySettings(program, plugins, context, { review: false });
    if (skipped.length === 0 || !project) return;
    const keys = skipped.map((part) => part.key).join(", ");
    const they = skipped.length === 1 ? "it applies" : "they apply";
    writeErr(
      `hel: ${shownPath(project.path)} changed, and ${keys} would widen what hel may do, so ` +
        `${they} only once you trust the file as it is now: hel trust settings\n`,
    );
  }
}

/** The whole file as it would be after the change must still be valid. */
function checkEditedFile(
  file: string,
  edited: string,
  plugins: readonly LoadedPlugin[],
  scope: "user" | "project",
): void {
  const bytes = new TextEncoder().encode(edited);
  const parsed = parseSettings(bytes, file, knownTools(plugins), scope);
  if (!parsed.ok) {
    throw new UsageError(
      `${parsed.problems.join("\nhel: ")}\nhel: nothing was written; fix ${file} by hand first`,
    );
  }
}

/** An unknown key is a usage error with a did-you-mean. */
function checkKey(key: string): void {
  if (knownKey(key)) return;
  const groups = [
    ...new Set(LEAF_KEYS.filter((k) => k.includes(".")).map((k) => k.split(".")[0]!)),
  ];
  throw new UsageError(
    `unknown setting ${key}${nameHint(key, [...LEAF_KEYS, ...groups])}; settings: ` +
      LEAF_KEYS.join(", "),
  );
}

/** JSON when the text parses as JSON, else the text itself. */
export function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function nested(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, part) => ({ [part]: inner }), value);
}

/** A key's effective value: a leaf's, or a group's leaves as an object. */
function valueOf(applied: AppliedSettings, key: string): unknown {
  const leaf = applied.values.find((entry) => entry.key === key);
  if (leaf) return leaf.value;
  const inner = applied.values.filter((entry) => entry.key.startsWith(`${key}.`));
  const object = Object.fromEntries(
    inner.filter((entry) => entry.value !== undefined)
      .map((entry) => [entry.key.slice(key.length + 1), entry.value]),
  );
  return Object.keys(object).length > 0 ? object : undefined;
}

/** The table of `hel config list`, and what an untrusted project file left out. */
export function formatSettingsList(applied: AppliedSettings): string {
  const rows = applied.values.map((entry) => [
    entry.key,
    entry.value === undefined ? "-" : JSON.stringify(entry.value),
    entry.origin,
  ]);
  const keyWidth = Math.max(...rows.map(([key]) => key!.length), "setting".length);
  const valueWidth = Math.min(40, Math.max(...rows.map(([, value]) => value!.length)));
  const line = ([key, value, origin]: string[]) =>
    `${key!.padEnd(keyWidth)}  ${value!.padEnd(valueWidth)}  ${origin}`.trimEnd();
  const lines = [line(["setting", "value", "from"]), ...rows.map(line)];
  if (applied.skipped.length > 0 && applied.project) {
    lines.push(
      "",
      `Not applied: ${shownPath(applied.project.path)} is not trusted, and these would widen ` +
        "what hel may do (review it: hel trust settings):",
      ...applied.skipped.map((part) => `  ${part.key}  ${JSON.stringify(part.value)}`),
    );
  }
  return lines.join("\n") + "\n";
}
