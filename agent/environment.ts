/**
 * Gathers the facts of the `Environment:` block and reads the context file.
 *
 * @module
 */
import { errorMessage } from "../core/errors.ts";
import { resolve } from "node:path";
import type { EnvironmentFacts } from "./system_prompt.ts";
import { boundedContextText } from "./context_limit.ts";
import type { FileReading } from "../core/file_reading.ts";

/** OS, working directory and date of this machine (plugins add their own lines). */
export function environmentFacts(cwd: string): EnvironmentFacts {
  let release = "unknown";
  try {
    release = Deno.osRelease();
  } catch {
    // Some sandboxes hide the release; "unknown" is honest.
  }
  return {
    os: `${Deno.build.os} ${release} (${Deno.build.arch})`,
    cwd,
    date: new Date().toISOString().slice(0, 10),
  };
}

/** The context file read when `--context-file` is not given; its absence is normal. */
export const DEFAULT_CONTEXT_FILE = "HEL.md";

/**
 * Reads `<project>/<name>` when it is a regular file with non-blank text. Only the working
 * directory is looked at, never its parents. A symlink is followed only to a file inside the
 * project: one pointing elsewhere (a cloned repository could link `~/.aws/credentials`) would
 * send that file to the model API. Whatever stops a file the user would expect to be read is
 * reported through `warn`; a missing `HEL.md` is not. A file cut to its size limit ends with a
 * note on where the rest is, in the words of `reading` when a plugin offers file reading.
 */
export async function readContextFile(
  project: string,
  name: string,
  warn: (text: string) => void,
  reading?: FileReading,
): Promise<{ name: string; text: string } | undefined> {
  const path = `${project}/${name}`;
  const skip = (why: string) => {
    warn(`context file ${path} ${why}; the system message goes without it`);
    return undefined;
  };
  let found = false;
  try {
    let info = await Deno.lstat(path);
    found = true;
    // Every link on the way counts, a linked folder too (`docs` -> ~/.aws); a name the user
    // gave that leaves the project by itself (`../notes.md`) is theirs to give.
    const target = await Deno.realPath(path);
    if (resolve(path).startsWith(`${project}/`) && !target.startsWith(`${project}/`)) {
      const how = info.isSymlink ? "is a symlink to" : "leads through a symlinked folder to";
      return skip(`${how} ${target}, outside the project; link a project file instead`);
    }
    if (info.isSymlink) info = await Deno.lstat(target);
    if (!info.isFile) return skip("is not a regular file");
    const text = await boundedContextText(target, name, warn, reading);
    return text.trim() === "" ? undefined : { name, text };
  } catch (error) {
    const missing = error instanceof Deno.errors.NotFound;
    if (missing && !found && name === DEFAULT_CONTEXT_FILE) return undefined;
    return skip(
      missing && !found
        ? "does not exist (check --context-file)"
        : missing
        ? "is a symlink to nothing"
        : `cannot be read (${errorMessage(error)})`,
    );
  }
}
