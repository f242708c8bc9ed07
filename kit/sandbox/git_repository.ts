/**
 * One git repository as a planted one matters: where its settings live (the configuration
 * files, those they include, the hooks folders, the `.git` files naming it, `commondir`),
 * which of them make git run a program, and a fingerprint of their bytes so a later change
 * is noticed without asking git again.
 *
 * @module
 */
import { basename, dirname, resolve } from "node:path";
import { escapeControlCharacters } from "../trust/review.ts";
import { sha256Hex } from "../trust/file_store.ts";
import { type ConfigEntry, parseConfig, runsProgram } from "./git_config.ts";

/** Settings files are small; a larger one is reported unread rather than loaded. */
const MAX_BYTES = 1024 * 1024;
/** git refuses deeper include chains too. */
const MAX_INCLUDES = 10;
/** Hooks listed (and read) per folder; a hooks path may name a large folder. */
const MAX_HOOKS = 20;

/** What is known of one repository. */
export interface GitRepository {
  /** The git folder (canonical): `.git`, the folder a `.git` file names, or a bare folder. */
  gitDir: string;
  /** The `.git` files or links that name it from a working tree. */
  namedBy: string[];
  /** The settings that run programs, and hooks, as lines for people and the model. */
  programs: string[];
  /** Existing files and folders holding its settings, for read-only binding. */
  settings: string[];
  /** Identity of each path whose change may change the settings (missing ones too). */
  watched: Map<string, Identity>;
  /** A hash of the settings' bytes. */
  fingerprint: string;
}

/** What `lstat` says of a path, enough to notice a change; `ctime` in milliseconds. */
export interface Identity {
  key: string;
  ctime: number;
}

/** The identity of `path` now. */
export function identity(path: string): Identity {
  try {
    const info = Deno.lstatSync(path);
    const ctime = info.ctime?.getTime() ?? Infinity;
    return {
      key: `${info.ino}:${info.mode}:${info.size}:${info.mtime?.getTime()}:${ctime}`,
      ctime,
    };
  } catch {
    return { key: "missing", ctime: 0 };
  }
}

/** Whether the names listed in a folder make it a git folder (as git's discovery checks). */
export function gitDirLayout(names: readonly string[]): boolean {
  const has = new Set(names.map((name) => name.toLowerCase()));
  return has.has("head") && ((has.has("objects") && has.has("refs")) || has.has("commondir"));
}

/** Whether `dir` is laid out as a git folder. */
export function isGitDir(dir: string): boolean {
  try {
    return gitDirLayout([...Deno.readDirSync(dir)].map((entry) => entry.name));
  } catch {
    return false;
  }
}

/** The git folder a `.git` file or link at `path` names, canonical, or undefined. */
export function namedGitDir(path: string): string | undefined {
  try {
    const info = Deno.lstatSync(path);
    if (info.isSymlink) return Deno.realPathSync(path);
    if (!info.isFile || info.size > 4096) return undefined;
    const named = Deno.readTextFileSync(path).match(/^gitdir: *(.+?)\s*$/m)?.[1];
    return named ? Deno.realPathSync(resolve(dirname(path), named)) : undefined;
  } catch {
    return undefined;
  }
}

/** A regular file's bytes (through links), undefined when missing, or why they were not read. */
function readSmall(path: string): string | undefined | { unread: string } {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) return { unread: "not a regular file" };
    if (info.size > MAX_BYTES) return { unread: `larger than ${MAX_BYTES} bytes` };
    return new TextDecoder().decode(Deno.readFileSync(path));
  } catch {
    return undefined;
  }
}

/** How to show a path to people and the model (relative to the project, escaped). */
export type ShowPath = (path: string) => string;

/**
 * Inspects the repository whose git folder is `gitDir`. `git` is a system git to parse its
 * configuration (without one, the configuration is reported unread); `home` expands `~/`.
 */
export async function inspectRepository(
  gitDir: string,
  namedBy: readonly string[],
  options: { git: string | undefined; home: string | undefined; show: ShowPath },
): Promise<GitRepository> {
  const { show } = options;
  const watched = new Map<string, Identity>();
  const settings: string[] = [];
  const programs: string[] = [];
  const bytes: string[] = [];
  /** Watches `path`; a setting is also bound read-only when it exists. */
  const watch = (path: string, setting = true) => {
    if (watched.has(path)) return;
    const id = identity(path);
    watched.set(path, id);
    if (setting && id.key !== "missing") settings.push(path);
  };
  watch(gitDir, false);
  for (const pointer of namedBy) {
    watch(pointer);
    bytes.push(`${pointer}\n${readText(pointer)}`);
  }
  const commonFile = `${gitDir}/commondir`;
  watch(commonFile);
  const commonText = readText(commonFile);
  let common = gitDir;
  if (commonText) {
    try {
      common = Deno.realPathSync(resolve(gitDir, commonText.split("\n")[0]!.trim()));
    } catch {
      // Names nothing: git refuses the repository.
    }
    watch(common, false);
  }
  bytes.push(commonText);
  const queue = [...new Set([`${common}/config`, `${gitDir}/config`])]
    .concat(`${gitDir}/config.worktree`, `${common}/config.worktree`)
    .map((path) => ({ path, depth: 0 }));
  const hooksPaths: string[] = [];
  const seen = new Set<string>();
  for (let item = queue.shift(); item; item = queue.shift()) {
    const { path, depth } = item;
    if (seen.has(path)) continue;
    seen.add(path);
    watch(path);
    watch(dirname(path), false); // an included file may be created later
    const text = readSmall(path);
    if (text === undefined) continue;
    if (typeof text !== "string") {
      programs.push(`${show(path)}: not read (${text.unread}); check it`);
      continue;
    }
    bytes.push(`${path}\n${text}`);
    const entries = await configEntries(text, path, options.git, programs, show);
    for (const entry of entries.filter(runsProgram)) {
      const where = depth > 0 ? ` (in ${show(path)})` : "";
      programs.push(`${entry.key} = ${oneLine(entry.value ?? "")}${where}`);
      const key = entry.key.toLowerCase();
      const value = expandHome(entry.value ?? "", options.home);
      if (key === "core.hookspath" && value) hooksPaths.push(value);
      if (key.endsWith(".path") && key.startsWith("include") && value) {
        if (depth < MAX_INCLUDES) {
          queue.push({ path: resolve(dirname(path), value), depth: depth + 1 });
        }
      }
    }
  }
  const trees = [...namedBy.map(dirname), ...basename(gitDir) === ".git" ? [dirname(gitDir)] : []];
  const hookDirs = new Set([`${common}/hooks`]);
  for (const value of hooksPaths) {
    for (const base of [...trees, gitDir]) hookDirs.add(resolve(base, value));
  }
  for (const dir of hookDirs) {
    watch(dir);
    const hooks = listHooks(dir);
    for (const hook of hooks.slice(0, MAX_HOOKS)) {
      watch(`${dir}/${hook}`);
      const text = readSmall(`${dir}/${hook}`);
      bytes.push(
        `${dir}/${hook}\n${identity(`${dir}/${hook}`).key}\n${
          typeof text === "string" ? text : ""
        }`,
      );
      programs.push(`hook ${show(`${dir}/${hook}`)}`);
    }
    if (hooks.length > MAX_HOOKS) {
      programs.push(`${hooks.length - MAX_HOOKS} more files in ${show(dir)}`);
    }
  }
  const fingerprint = await sha256Hex(new TextEncoder().encode(bytes.join("\0")));
  return { gitDir, namedBy: [...namedBy], programs, settings, watched, fingerprint };
}

async function configEntries(
  text: string,
  path: string,
  git: string | undefined,
  programs: string[],
  show: ShowPath,
): Promise<ConfigEntry[]> {
  if (text.trim() === "") return [];
  if (!git) {
    programs.push(`${show(path)}: not read (git is not installed here); check it`);
    return [];
  }
  const parsed = await parseConfig(git, text);
  if (parsed.ok) return parsed.entries;
  programs.push(`${show(path)}: git cannot read it (${oneLine(parsed.reason)})`);
  return [];
}

/** Entries of a hooks folder that git could run (samples are not run). */
function listHooks(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)]
      .map((entry) => entry.name)
      .filter((name) => !name.endsWith(".sample"))
      .sort();
  } catch {
    return [];
  }
}

function readText(path: string): string {
  const text = readSmall(path);
  return typeof text === "string" ? text : "";
}

function expandHome(value: string, home: string | undefined): string {
  return home && value.startsWith("~/") ? `${home}${value.slice(1)}` : value;
}

/** A value on one line, with control characters visible and a bound on its length. */
export function oneLine(value: string): string {
  const visible = escapeControlCharacters(value).replace(/\n/g, "\\n").replace(/\t/g, "\\t");
  return visible.length > 200 ? `${visible.slice(0, 200)}…` : visible;
}
