/**
 * Finding and reading the two settings files: the person's `$HEL_HOME/settings.jsonc` and the
 * project's `.hel/settings.jsonc` (read link-safely, as hooks.json and mcp.json are: it is
 * repository content). Mistakes in either are collected, not thrown, so all are reported at once.
 *
 * @module
 */
import { resolve } from "node:path";
import { errorMessage } from "../../core/errors.ts";
import {
  PROJECT_CONFIG_MAX_BYTES,
  projectConfigPath,
  readProjectConfig,
} from "../../kit/config/project_file.ts";
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
  return resolve(helHome, SETTINGS_FILE);
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
  const userPath = userSettingsPath(helHome);
  const user = await readUserFile(userPath);
  if (typeof user === "string") found.problems.push(user);
  else if (user) {
    const parsed = parseSettings(user, userPath, knownTools);
    if (parsed.ok) found.user = { scope: "user", path: userPath, bytes: user, ...parsed };
    else found.problems.push(...parsed.problems);
  }
  // hel run in the home folder with the default $HEL_HOME: the one file is the person's own.
  if (await samePath(userPath, projectSettingsPath(project))) return found;
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

/** The file's bytes, undefined when there is none, or why it cannot be read. */
async function readUserFile(path: string): Promise<Uint8Array | undefined | string> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) return `${path} is not a file; remove it or make it a settings file`;
    if (info.size > PROJECT_CONFIG_MAX_BYTES) {
      return `${path} is larger than 1 MiB (${info.size} bytes); settings files are small`;
    }
    return await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    return `cannot read ${path}: ${errorMessage(error)}`;
  }
}

async function samePath(a: string, b: string): Promise<boolean> {
  if (a === b) return true;
  const real = (path: string) => Deno.realPath(path).catch(() => path);
  return await real(a) === await real(b);
}
