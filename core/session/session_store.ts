/**
 * The project's `.hel/` folder and its sessions: every run is a session with a UUID and a
 * folder `.hel/sessions/<id>/`. When hel creates `.hel/` it adds a `.gitignore` of `*`, so git
 * ignores hel's state without touching the project's own ignore file.
 *
 * @module
 */

/** A session's identity and folder. */
export interface SessionPaths {
  id: string;
  dir: string;
  spillDir: string;
}

/** `<project>/.hel`, created (mode 0700, with its `.gitignore`) when missing. */
export async function ensureHelDir(project: string): Promise<string> {
  const helDir = `${project}/.hel`;
  try {
    await Deno.mkdir(helDir, { mode: 0o700 });
    await Deno.writeTextFile(`${helDir}/.gitignore`, "*\n");
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    const info = await Deno.lstat(helDir);
    if (!info.isDirectory) {
      throw new Error(`${helDir} must be a real directory (found a symlink or file); move it away`);
    }
  }
  return helDir;
}

/** The paths of session `id` in `project` (nothing is created). */
export function sessionPaths(project: string, id: string): SessionPaths {
  const dir = `${project}/.hel/sessions/${id}`;
  return { id, dir, spillDir: `${dir}/spill` };
}

/** Creates a new session folder with a fresh UUID. */
export async function createSession(project: string): Promise<SessionPaths> {
  const helDir = await ensureHelDir(project);
  await Deno.mkdir(`${helDir}/sessions`, { recursive: true, mode: 0o700 });
  const paths = sessionPaths(project, crypto.randomUUID());
  await Deno.mkdir(paths.dir, { mode: 0o700 });
  return paths;
}

/**
 * Saves `text` as a new spill file (mode 0600, created exclusively) and returns its path, or
 * undefined when the save failed (the caller then sends the text unchanged).
 */
export async function writeSpillFile(
  session: SessionPaths,
  text: string,
): Promise<string | undefined> {
  try {
    await Deno.mkdir(session.spillDir, { recursive: true, mode: 0o700 });
    const path = `${session.spillDir}/${crypto.randomUUID()}.txt`;
    await Deno.writeTextFile(path, text, { createNew: true, mode: 0o600 });
    return path;
  } catch {
    return undefined;
  }
}
