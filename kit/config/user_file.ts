/**
 * Reading a configuration file in the person's own `$HEL_HOME` (settings.jsonc, mcp.json). Their
 * folder, so a link to their dotfiles is followed; the file must still be a regular file of at
 * most 1 MiB, and the bytes are read through the one open file whose size was checked, so a file
 * swapped or grown meanwhile cannot make hel read more. Each caller words the outcome its own way.
 *
 * @module
 */
import { resolve } from "node:path";
import { errorMessage } from "../../core/errors.ts";
import { PROJECT_CONFIG_MAX_BYTES, readAtMost } from "./project_file.ts";

/** What reading `$HEL_HOME/<name>` found; `path` is absolute. */
export type UserConfigFile =
  | { kind: "absent"; path: string }
  /** A folder, a device, a pipe: nothing hel reads. */
  | { kind: "not-file"; path: string }
  /** Larger than 1 MiB; `size` is what was found. */
  | { kind: "too-large"; path: string; size: number }
  /** Reading failed; `message` is `cannot read <path>: <reason>`. */
  | { kind: "unreadable"; path: string; message: string }
  | { kind: "ok"; path: string; bytes: Uint8Array };

/** The absolute path of `$HEL_HOME/<name>`. */
export function userConfigPath(helHome: string, name: string): string {
  return resolve(helHome, name);
}

/** Reads `$HEL_HOME/<name>`; never throws. */
export async function readUserConfig(helHome: string, name: string): Promise<UserConfigFile> {
  const path = userConfigPath(helHome, name);
  let file: Deno.FsFile | undefined;
  try {
    // Stat before opening: opening a pipe would wait for a writer.
    if (!(await Deno.stat(path)).isFile) return { kind: "not-file", path };
    file = await Deno.open(path, { read: true });
    const opened = await file.stat();
    if (!opened.isFile) return { kind: "not-file", path };
    if (opened.size > PROJECT_CONFIG_MAX_BYTES) {
      return { kind: "too-large", path, size: opened.size };
    }
    const bytes = await readAtMost(file, PROJECT_CONFIG_MAX_BYTES + 1);
    if (bytes.length > PROJECT_CONFIG_MAX_BYTES) {
      return { kind: "too-large", path, size: bytes.length };
    }
    return { kind: "ok", path, bytes };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { kind: "absent", path };
    return { kind: "unreadable", path, message: `cannot read ${path}: ${errorMessage(error)}` };
  } finally {
    file?.close();
  }
}

/**
 * True when the project's `.hel` is `$HEL_HOME` itself (hel started in `~` with the default
 * `~/.hel`): its files are then the person's own, read once as theirs.
 */
export async function projectIsHelHome(helHome: string, project: string): Promise<boolean> {
  try {
    const [home, folder] = await Promise.all([
      Deno.stat(resolve(helHome)),
      Deno.stat(`${project}/.hel`),
    ]);
    return home.dev === folder.dev && home.ino === folder.ino;
  } catch {
    return false;
  }
}
