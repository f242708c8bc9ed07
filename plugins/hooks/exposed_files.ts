/**
 * The project files that trusted hook commands with `"sandbox": false` name. Such hooks run
 * outside the sandbox, but the model can change any project file outside `.hel/` (with the
 * file tools, or with commands in the sandbox), so such a file would let the model run its
 * own code unsandboxed at the next tool call; and a `git pull` can change any file, `.hel/`
 * included. The trust review covers only hooks.json's bytes. So the user is told at start,
 * a file changed since hel last ran it is asked about (file_pins.ts), and during the run a
 * handler whose named file changed since start is not run.
 *
 * The search is a heuristic over the command's words (a shell is not parsed): a program word
 * (see {@link programWords}) that names an existing regular file inside the project counts.
 * Files a program reads by itself (a Makefile, package.json scripts) are not found.
 *
 * @module
 */
import { relative, resolve } from "node:path";
import { isWithin, sha256OfFile } from "../../kit/mod.ts";
import type { HookHandler } from "./config.ts";

/** Programs that run a file named after them (`sh x.sh`, `python3 x.py`, `deno run x.ts`). */
const INTERPRETER =
  /^(sh|bash|dash|zsh|ksh|fish|source|\.|python[0-9.]*|node|deno|bun|tsx|ts-node|ruby|perl|php|lua|Rscript)$/;

/**
 * The words of a command that name what runs: the first word of each simple command, and
 * after an interpreter its other words up to a redirection. Files a hook only reads or writes
 * (`cat > log.json`) are not programs, so a hook that changes them is not refused.
 */
function programWords(command: string): string[] {
  const found: string[] = [];
  for (const segment of command.split(/[;&|()\n]+/)) {
    const tokens = segment.split(/[\s"'`]+/).filter((word) => word !== "");
    while (tokens.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(tokens[0]!)) tokens.shift();
    const first = tokens[0];
    if (first === undefined || /^[<>0-9]/.test(first)) continue;
    found.push(first);
    if (!INTERPRETER.test(first.split("/").pop()!)) continue;
    for (const token of tokens.slice(1)) {
      if (/^[0-9]*[<>]/.test(token)) break;
      if (!token.startsWith("-")) found.push(token);
    }
  }
  return found;
}

/** Project-relative paths of the files one command names, sorted. */
async function filesNamed(command: string, project: string): Promise<string[]> {
  const found = new Set<string>();
  for (const word of programWords(command)) {
    const path = resolve(project, word);
    const rel = relative(project, path);
    if (rel === "" || !isWithin(project, path)) continue;
    try {
      // Through links too: a link in the project to a script is as changeable as the script.
      if ((await Deno.stat(path)).isFile) found.add(rel);
    } catch (error) {
      // A path to a script not there yet counts as well: the model could create it. A plain
      // word that names nothing is a program on the PATH.
      if (error instanceof Deno.errors.NotFound && word.includes("/")) found.add(rel);
    }
  }
  return [...found].sort();
}

/** The SHA-256 of a project file, or "missing" when it cannot be read. */
async function fingerprint(project: string, rel: string): Promise<string> {
  return await sha256OfFile(resolve(project, rel)) ?? "missing";
}

/** The files each handler names, as they were when hel started. */
export interface ExposedFiles {
  /** Every named file, sorted (empty when the hooks name none). */
  all: string[];
  /** Each named file's SHA-256 at start, or "missing". */
  prints: Readonly<Record<string, string>>;
  /** Marks files as not to be run in this run, whatever their contents. */
  refuse(files: readonly string[]): void;
  /** The named files of `handler` refused, or changed since start (or vanished), sorted. */
  changed(handler: HookHandler): Promise<string[]>;
}

/** Records the files the handlers name and their contents now. */
export async function exposedHookFiles(
  handlers: readonly HookHandler[],
  project: string,
): Promise<ExposedFiles> {
  const named = new Map<HookHandler, string[]>();
  const prints = new Map<string, string>();
  for (const handler of handlers) {
    const files = await filesNamed(handler.command, project);
    named.set(handler, files);
    for (const file of files) {
      if (!prints.has(file)) prints.set(file, await fingerprint(project, file));
    }
  }
  const refused = new Set<string>();
  return {
    all: [...prints.keys()].sort(),
    prints: Object.fromEntries(prints),
    refuse(files) {
      for (const file of files) refused.add(file);
    },
    async changed(handler) {
      const changed: string[] = [];
      for (const file of named.get(handler) ?? []) {
        if (refused.has(file) || await fingerprint(project, file) !== prints.get(file)) {
          changed.push(file);
        }
      }
      return changed;
    },
  };
}
