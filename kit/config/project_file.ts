import { errorMessage } from "../../core/errors.ts";
import { concatBytes } from "../bytes.ts";
/**
 * Reading a project configuration file under `<project>/.hel/` (hooks.json, mcp.json) the
 * careful way: `.hel` must be a real directory, the file a regular file reached without
 * following a symlink, and at most 1 MiB. The bytes returned are the bytes to hash, review
 * and use; nothing re-reads the file afterwards.
 *
 * @module
 */

/** Project configuration files larger than this are refused. */
export const PROJECT_CONFIG_MAX_BYTES = 1024 * 1024;

/** What reading a project configuration file found. */
export type ProjectConfigFile =
  /** Neither `.hel` nor the file exists: the feature is simply not configured. */
  | { kind: "absent"; path: string }
  /** The file exists but must not or cannot be used; `message` says why and what to do. */
  | { kind: "unusable"; path: string; message: string }
  | { kind: "ok"; path: string; bytes: Uint8Array };

/** The path of `<project>/.hel/<name>`. */
export function projectConfigPath(project: string, name: string): string {
  return `${project}/.hel/${name}`;
}

/** Reads `<project>/.hel/<name>`; never throws. */
export async function readProjectConfig(
  project: string,
  name: string,
): Promise<ProjectConfigFile> {
  const dir = `${project}/.hel`;
  const path = projectConfigPath(project, name);
  const unusable = (message: string): ProjectConfigFile => ({ kind: "unusable", path, message });
  try {
    const dirInfo = await Deno.lstat(dir);
    if (!dirInfo.isDirectory) {
      return unusable(`${dir} must be a real directory, not a symlink or file; ${name} ignored`);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { kind: "absent", path };
    return unusable(`cannot inspect ${dir}: ${errorMessage(error)}`);
  }
  let before: Deno.FileInfo;
  try {
    before = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { kind: "absent", path };
    return unusable(`cannot inspect ${path}: ${errorMessage(error)}`);
  }
  if (!before.isFile) {
    return unusable(`${path} must be a regular file, not a symlink or directory; it was ignored`);
  }
  if (before.size > PROJECT_CONFIG_MAX_BYTES) {
    return unusable(`${path} is larger than 1 MiB (${before.size} bytes); it was ignored`);
  }
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(path, { read: true });
    // The path could have been swapped for a symlink between lstat and open: make sure the
    // file we opened is the one we inspected.
    const opened = await file.stat();
    if (!opened.isFile || opened.ino !== before.ino || opened.dev !== before.dev) {
      return unusable(`${path} changed while it was being read; run hel again`);
    }
    const bytes = await readAtMost(file, PROJECT_CONFIG_MAX_BYTES + 1);
    if (bytes.length > PROJECT_CONFIG_MAX_BYTES) {
      return unusable(`${path} is larger than 1 MiB; it was ignored`);
    }
    return { kind: "ok", path, bytes };
  } catch (error) {
    return unusable(`cannot read ${path}: ${errorMessage(error)}`);
  } finally {
    file?.close();
  }
}

/** Up to `limit` bytes (a little more at most: whole chunks) read from `file`. */
export async function readAtMost(file: Deno.FsFile, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buffer = new Uint8Array(64 * 1024);
  while (total < limit) {
    const count = await file.read(buffer);
    if (count === null) break;
    chunks.push(buffer.slice(0, count));
    total += count;
  }
  return concatBytes(chunks);
}
