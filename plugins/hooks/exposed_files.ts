/**
 * Finds the project files that trusted hook commands run, outside `.hel/`. Hooks run outside
 * the tool sandbox, but the model can change any project file outside `.hel/` (with the file
 * tools, or with commands in the sandbox), so such a file would let the model run its own code
 * unsandboxed at the next tool call. The trust review covers only hooks.json's bytes, so the
 * user is told at start, with the fix: keep hook scripts in `.hel/`, which the model cannot
 * change.
 *
 * The search is a heuristic over the command's words (a shell is not parsed): any word that
 * names an existing regular file inside the project counts.
 *
 * @module
 */
import { isAbsolute, relative, resolve } from "node:path";
import type { HooksConfig } from "./config.ts";

/** The words of a command, split at blanks, quotes and shell operators. */
function words(command: string): string[] {
  return command.split(/[\s"'`;&|()<>=]+/).filter((word) => word !== "");
}

/** Project-relative paths of files outside `.hel/` that the handlers' commands name, sorted. */
export async function exposedHookFiles(config: HooksConfig, project: string): Promise<string[]> {
  const found = new Set<string>();
  const handlers = [...config.PreToolUse, ...config.PostToolUse];
  for (const handler of handlers) {
    for (const word of words(handler.command)) {
      const path = resolve(project, word);
      const rel = relative(project, path);
      if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) continue;
      if (rel.split("/")[0]!.toLowerCase() === ".hel") continue;
      try {
        // Through links too: a link in the project to a script is as changeable as the script.
        if ((await Deno.stat(path)).isFile) found.add(rel);
      } catch {
        // Not a file in the project: an ordinary word, or a program on the PATH.
      }
    }
  }
  return [...found].sort();
}
