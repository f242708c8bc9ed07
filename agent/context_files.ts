/**
 * The project's context files: `HEL.md` and `AGENTS.md` (the convention Codex, Gemini CLI,
 * OpenCode and others share) by default, or the list `--context-file` (or the settings) gives,
 * each read from the working directory within its own size limit (context_limit.ts) and added
 * to the system message in list order.
 *
 * @module
 */
import { errorMessage } from "../core/errors.ts";
import { resolve } from "node:path";
import { boundedContextText } from "./context_limit.ts";
import type { FileReading } from "../core/file_reading.ts";

/** The context files read when no list is given; a missing one is normal. */
export const DEFAULT_CONTEXT_FILES: readonly string[] = Object.freeze(["HEL.md", "AGENTS.md"]);

/** A context file as the system message shows it. */
export interface ContextFile {
  /** The name as listed, relative to the project. */
  name: string;
  /** Its text, cut to its limit with a note when longer. */
  text: string;
}

/**
 * Reads the files `names` lists, in order, skipping blank ones and any that leads to a file
 * read already (`HEL.md` a link to `AGENTS.md`). A missing file is said through `warn` when
 * the person named the list; the default files may be absent.
 */
export async function readContextFiles(
  project: string,
  names: readonly string[],
  warn: (text: string) => void,
  reading?: FileReading,
): Promise<ContextFile[]> {
  const named = names.join("\n") !== DEFAULT_CONTEXT_FILES.join("\n");
  const files: ContextFile[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const file = await readContextFile(project, name, warn, reading, named);
    if (!file || seen.has(file.target)) continue;
    seen.add(file.target);
    files.push({ name: file.name, text: file.text });
  }
  return files;
}

/**
 * Reads `<project>/<name>` when it is a regular file with non-blank text. Only the working
 * directory is looked at, never its parents. A symlink is followed only to a file inside the
 * project: one pointing elsewhere (a cloned repository could link `~/.aws/credentials`) would
 * send that file to the model API. Whatever stops a file the user would expect to be read is
 * reported through `warn`; a missing one only when `named`. A file cut to its size limit ends
 * with a note on where the rest is, in the words of `reading` when a plugin offers file
 * reading.
 */
async function readContextFile(
  project: string,
  name: string,
  warn: (text: string) => void,
  reading: FileReading | undefined,
  named: boolean,
): Promise<ContextFile & { target: string } | undefined> {
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
    return text.trim() === "" ? undefined : { name, text, target };
  } catch (error) {
    const missing = error instanceof Deno.errors.NotFound;
    if (missing && !found && !named) return undefined;
    return skip(
      missing && !found
        ? "does not exist (check --context-file)"
        : missing
        ? "is a symlink to nothing"
        : `cannot be read (${errorMessage(error)})`,
    );
  }
}
