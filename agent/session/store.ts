/**
 * The project's `.hel/` folder and its sessions: every run is a session with a UUID and a
 * folder `.hel/sessions/<id>/`. When hel creates `.hel/` it adds a `.gitignore` that leaves its
 * state (sessions, history) out of git without touching the project's own ignore file.
 *
 * @module
 */
import { errorMessage } from "../../core/errors.ts";
import { UsageError } from "../../core/usage_error.ts";
import { UnsafePathError, writeNewFile } from "../../kit/safe_write.ts";
import { makeHelFolder } from "../../kit/config/hel_folder.ts";

/** A session's identity and folder. */
export interface SessionPaths {
  id: string;
  dir: string;
  spillDir: string;
}

/** `<project>/.hel`, created (mode 0700, with its `.gitignore`) when missing. */
export async function ensureHelDir(project: string): Promise<string> {
  try {
    return await makeHelFolder(project);
  } catch (error) {
    if (error instanceof UnsafePathError) throw new UsageError(error.message);
    throw cannotCreate(`${project}/.hel`, error);
  }
}

/**
 * Throws a usage error unless `path` is a real directory (lstat: a symlink does not count).
 * A symlinked `.hel` or `.hel/sessions`, which a cloned repository can ship, would put
 * conversations and spilled tool output wherever it points.
 */
export async function checkRealDirectory(path: string): Promise<void> {
  const info = await Deno.lstat(path);
  if (!info.isDirectory) {
    throw new UsageError(
      `${path} must be a real directory (found a symlink or file); move it away`,
    );
  }
}

/**
 * Checks that `.hel` and `.hel/sessions` are real folders of the project (a symlink is refused
 * with a usage error); false when they do not exist yet.
 */
export async function sessionsFolderExists(project: string): Promise<boolean> {
  try {
    await checkRealDirectory(`${project}/.hel`);
    await checkRealDirectory(`${project}/.hel/sessions`);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** The ids of the project's session folders (real folders named by a lowercase UUID). */
export async function sessionIds(project: string): Promise<string[]> {
  const ids: string[] = [];
  if (!await sessionsFolderExists(project)) return ids;
  for await (const entry of Deno.readDir(`${project}/.hel/sessions`)) {
    if (entry.isDirectory && isSessionId(entry.name)) ids.push(entry.name);
  }
  return ids;
}

/** True when `id` is a whole session id: a lowercase UUID, as session folders are named. */
export function isSessionId(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);
}

/** A failure to create hel's state in the project, as a setup error saying what to do. */
function cannotCreate(path: string, error: unknown): Error {
  if (error instanceof UsageError) return error;
  return new UsageError(
    `cannot create ${path}: ${errorMessage(error)}. hel keeps its sessions in the ` +
      "project's .hel folder; run it in a folder you can write to",
  );
}

/** The paths of session `id` in `project` (nothing is created). */
export function sessionPaths(project: string, id: string): SessionPaths {
  const dir = `${project}/.hel/sessions/${id}`;
  return { id, dir, spillDir: `${dir}/spill` };
}

/** The paths of a new session, under a fresh UUID (nothing is created: see {@link createSessionFolder}). */
export function newSessionPaths(project: string): SessionPaths {
  return sessionPaths(project, crypto.randomUUID());
}

/** Creates the folder of new session `paths` (and `.hel`, `.hel/sessions` when missing). */
export async function createSessionFolder(project: string, paths: SessionPaths): Promise<void> {
  const helDir = await ensureHelDir(project);
  try {
    await Deno.mkdir(`${helDir}/sessions`, { recursive: true, mode: 0o700 });
    await checkRealDirectory(`${helDir}/sessions`);
    await Deno.mkdir(paths.dir, { mode: 0o700 });
  } catch (error) {
    throw cannotCreate(paths.dir, error);
  }
}

/**
 * Saves `text` as a new spill file (mode 0600, created exclusively, never through a link) and
 * returns its path, or undefined when the save failed (the caller then sends the text
 * unchanged). A refusal because of a link is told to `warn`: someone planted it.
 */
export async function writeSpillFile(
  session: SessionPaths,
  text: string,
  warn: (message: string) => void = () => {},
): Promise<string | undefined> {
  try {
    const path = `${session.spillDir}/${crypto.randomUUID()}.txt`;
    await writeNewFile(session.dir, path, text);
    return path;
  } catch (error) {
    if (error instanceof UnsafePathError) {
      warn(`a large tool result was not saved to a file: ${error.message}`);
    }
    return undefined;
  }
}
