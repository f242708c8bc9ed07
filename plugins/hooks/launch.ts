/**
 * How a hook command is started. By default inside the sandbox `bash` uses (kit/sandbox): the
 * project writable, every `.hel` folder hidden but the files the command names in the
 * project's `.hel/` (bound back read-only), home folders hidden but toolchains, no model API
 * keys, its own pid namespace (nothing it starts outlives it; hel's process is not visible).
 * The model can rewrite any script such a hook runs, so no heuristic has to find them: they
 * run with no more rights than the model's own commands.
 *
 * A handler with `"sandbox": false` (or every handler under `--sandbox off`) runs
 * `/bin/sh -c` directly with hel's rights; its PATH keeps only folders outside the project, so
 * `python3` or `npx` cannot resolve to a program the model planted in `.venv/bin` or
 * `node_modules/.bin`. The scripts it names are pinned (file_pins.ts).
 *
 * @module
 */
import { isAbsolute, relative, resolve } from "node:path";
import { isWithin, pathOutside, type Prepared, type Sandbox } from "../../kit/mod.ts";
import type { HookHandler } from "./config.ts";

/** Starts hook commands: in the sandbox, or outside it for the handlers that say so. */
export type Launcher = (handler: HookHandler) => Promise<Prepared>;

/** Whether `handler` runs outside the sandbox in this run. */
export function runsUnsandboxed(handler: HookHandler, sandboxOn: boolean): boolean {
  return !sandboxOn || !handler.sandbox;
}

/** The launcher for a run; `env` is the environment for children (no model API keys). */
export function createLauncher(
  sandbox: Pick<Sandbox, "prepare">,
  sandboxOn: boolean,
  project: string,
  env: () => Record<string, string>,
): Launcher {
  return async (handler) => {
    const args = ["-c", handler.command];
    if (runsUnsandboxed(handler, sandboxOn)) {
      const outside = env();
      return {
        ok: true,
        program: "/bin/sh",
        args,
        env: { ...outside, PATH: pathOutside(outside.PATH ?? "", project) },
      };
    }
    const expose = await helFilesNamed(handler.command, project);
    return await sandbox.prepare("/bin/sh", args, { expose });
  };
}

/**
 * Paths in the project's `.hel/` that a command names (`.hel/format.sh`,
 * `python3 .hel/hooks/lint.py`): existing files and folders, never `.hel` itself nor the
 * sessions. A sandboxed hook sees these read-only and the rest of `.hel` not at all.
 */
export async function helFilesNamed(command: string, project: string): Promise<string[]> {
  const found = new Set<string>();
  const helDir = `${project}/.hel`;
  for (const word of command.split(/[\s"'`;&|()<>=]+/)) {
    if (!word.includes(".hel")) continue;
    const path = resolve(project, word);
    const rel = relative(helDir, path);
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) continue;
    if (rel.split("/")[0] === "sessions") continue;
    try {
      // Not through a link anywhere on the way: bound into the sandbox, it would show
      // whatever it points to (the project path is canonical already).
      if (await Deno.realPath(path) === path) found.add(path);
    } catch {
      // Named but not there: nothing to show.
    }
  }
  return [...found].sort();
}
