/**
 * Finding and reading the two settings files: the person's `$HEL_HOME/settings.jsonc` and the
 * project's `.hel/settings.jsonc` (read link-safely, as hooks.json and mcp.json are: it is
 * repository content). Mistakes in either are collected, not thrown, so all are reported at once.
 *
 * @module
 */
import { projectConfigPath, readProjectConfig } from "../../kit/config/project_file.ts";
import { projectIsHelHome, readUserConfig, userConfigPath } from "../../kit/config/user_file.ts";
import { parseSettings } from "./parse.ts";
import { type Settings, SETTINGS_FILE } from "./schema.ts";

/** A settings file that was read and is valid. */
export interface SettingsFile {
  scope: "user" | "project";
  path: string;
  /** The bytes that were checked: the ones to hash for trust. */
  bytes: Uint8Array;
  settings: Settings;
}

/** What reading both files found. */
export interface SettingsFiles {
  user?: SettingsFile;
  project?: SettingsFile;
  /** Mistakes that make a file unusable (`file:line:column: ...`): hel stops on them. */
  problems: string[];
  /** A project file that must not be used (a link, too large): skipped with a warning. */
  warnings: string[];
}

/** The person's settings file. */
export function userSettingsPath(helHome: string): string {
  return userConfigPath(helHome, SETTINGS_FILE);
}

/** The project's settings file. */
export function projectSettingsPath(project: string): string {
  return projectConfigPath(project, SETTINGS_FILE);
}

/** Reads and checks both files; `knownTools` are the names `tools` may list. */
export async function readSettingsFiles(
  helHome: string,
  project: string,
  knownTools?: readonly string[],
): Promise<SettingsFiles> {
  const found: SettingsFiles = { problems: [], warnings: [] };
  const user = await readUserConfig(helHome, SETTINGS_FILE);
  const { path } = user;
  if (user.kind === "not-file") {
    found.problems.push(`${path} is not a file; remove it or make it a settings file`);
  } else if (user.kind === "too-large") {
    found.problems.push(
      `${path} is larger than 1 MiB (${user.size} bytes); settings files are small`,
    );
  } else if (user.kind === "unreadable") found.problems.push(user.message);
  else if (user.kind === "ok") {
    const parsed = parseSettings(user.bytes, path, knownTools);
    if (parsed.ok) found.user = { scope: "user", path, bytes: user.bytes, ...parsed };
    else found.problems.push(...parsed.problems);
  }
  // hel run in the home folder with the default $HEL_HOME: the one file is the person's own.
  if (await projectIsHelHome(helHome, project)) return found;
  const file = await readProjectConfig(project, SETTINGS_FILE);
  if (file.kind === "unusable") found.warnings.push(`${file.message}; its settings were skipped`);
  else if (file.kind === "ok") {
    const parsed = parseSettings(file.bytes, file.path, knownTools, "project");
    if (parsed.ok) {
      found.project = { scope: "project", path: file.path, bytes: file.bytes, ...parsed };
    } else found.problems.push(...parsed.problems);
  }
  return found;
}
