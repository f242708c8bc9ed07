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
import {
  commandWords,
  type Covers,
  namedPaths,
  pathOutside,
  type Prepared,
  type Sandbox,
} from "../../kit/mod.ts";
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
  covers: Covers = {},
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
    const named = await namedPaths(commandWords(handler.command), project, covers);
    return await sandbox.prepare("/bin/sh", args, named);
  };
}
