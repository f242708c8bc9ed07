/**
 * The paths a trusted hook or server entry names on its command line, for the sandbox to show:
 * files and folders inside a hidden `.hel` folder (a hook's `.hel/format.sh`, a server's
 * `.hel/mcp/x.py`), bound back read-only; and absolute paths outside the project that the
 * sandbox would hide (a server kept in `~/mcp/`, a checkout under `/tmp`), shown read-only. The
 * person reviewed that command line when trusting the file, so what it names is meant to run.
 * Only a program or script brings its folder along (its modules sit beside it): a data file
 * (`--known-hosts ~/.ssh/known_hosts`) is shown alone, so the private key beside it, which the
 * person never saw named, stays hidden.
 *
 * @module
 */
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { isWithin, touchesProtected } from "../paths.ts";
import { PRIVATE_FOLDERS } from "./home.ts";

/** What an entry names, sorted, each path canonical (no link on the way). */
export interface NamedPaths {
  /** Inside a `.hel` folder of the project: for `PrepareOptions.expose`. */
  expose: string[];
  /** Outside the project: for `PrepareOptions.reads`. */
  reads: string[];
}

/** The words of a shell command line, as far as paths go (quotes, operators and `=` split). */
export function commandWords(command: string): string[] {
  return command.split(/[\s"'`;&|()<>=]+/).filter((word) => word !== "");
}

/** What the sandbox covers, as far as named paths go. */
export interface Covers {
  /** `$HOME`. */
  home?: string;
  /** `$HEL_HOME`: nothing inside it is ever shown. */
  helHome?: string;
}

/** Folders the sandbox covers besides the home folders: its private `/tmp` and `/run`. */
const PRIVATE_RUNTIME = ["/tmp", "/run"] as const;

/** What `words` (a program and its arguments; `--opt=path` counts as a path) name. */
export async function namedPaths(
  words: readonly string[],
  project: string,
  covers: Covers,
): Promise<NamedPaths> {
  const expose = new Set<string>();
  const reads = new Set<string>();
  const candidates = words.flatMap((word) => [word, ...word.split("=").slice(1)]);
  for (const word of candidates.filter((word) => word !== "")) {
    const path = resolve(project, word);
    const info = await canonical(path);
    if (!info) continue;
    if (isWithin(project, path)) {
      if (helPart(project, path)) expose.add(path);
    } else if (isAbsolute(word)) {
      const kind = !info.isFile ? "folder" : isProgram(path, info) ? "program" : "file";
      const shown = outsideRead(path, kind, covers);
      if (shown) reads.add(shown);
    }
  }
  return { expose: [...expose].sort(), reads: [...reads].sort() };
}

/** File names of scripts, whose modules and libraries usually sit beside them. */
const SCRIPT = /\.([cm]?[jt]sx?|py[wz]?|sh|bash|zsh|rb|pl|php|lua|jar)$/i;

/** Whether a file is a program or script: executable, or named like a script. */
function isProgram(path: string, info: Deno.FileInfo): boolean {
  return ((info.mode ?? 0) & 0o111) !== 0 || SCRIPT.test(path);
}

/** The file's information when `path` exists and no link lies on the way; else undefined. */
async function canonical(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    // Through a link, a bind would show whatever it points to.
    if (await Deno.realPath(path) !== path) return undefined;
    return await Deno.stat(path);
  } catch {
    return undefined;
  }
}

/** Whether `path` lies strictly inside a `.hel` of the project, outside its sessions. */
function helPart(project: string, path: string): boolean {
  const parts = relative(project, path).split("/");
  const at = parts.findLastIndex((part) => touchesProtected("/", `/${part}`));
  return at >= 0 && at < parts.length - 1 && parts[at + 1]?.toLowerCase() !== "sessions";
}

/**
 * What to show of an outside `path` the sandbox covers (elsewhere it is visible already): a
 * program's folder (its modules sit beside it) or the folder itself; the file alone when its
 * folder is or holds a cover (`node /root/server.js` shows no more of /root); nothing inside
 * `$HEL_HOME` or any `.hel`. Any other file is shown alone.
 */
function outsideRead(
  path: string,
  kind: "folder" | "program" | "file",
  covers: Covers,
): string | undefined {
  if (covers.helHome && isWithin(resolve(covers.helHome), path)) return undefined;
  if (touchesProtected("/", path)) return undefined;
  const all = [...PRIVATE_FOLDERS, ...PRIVATE_RUNTIME, ...covers.home ? [covers.home] : []];
  if (!all.some((cover) => isWithin(cover, path))) return undefined;
  if (kind === "file") return path;
  const folder = kind === "program" ? dirname(path) : path;
  if (!all.some((cover) => isWithin(folder, cover))) return folder;
  return kind === "program" ? path : undefined;
}
