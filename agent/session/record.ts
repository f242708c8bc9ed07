/**
 * Which sessions hel itself created: one small file per session in
 * `$HEL_HOME/session-records/`, named by the SHA-256 of the session id (a random UUID), that
 * holds the project the session was created for.
 * `$HEL_HOME` lies outside every project (or inside a hidden `.hel`), so neither the model's
 * commands nor a cloned repository can write it. `--resume` loads only a recorded session: a
 * `.hel/sessions/<id>/` that a sandboxed command forged (say in a monorepo's `pkg/.hel`, for
 * the person's next `hel --resume` there, even under the id of a real session of another
 * project) or that came with a repository is refused before its bytes are parsed. Existing folders are hidden from sandboxed programs, so what hel
 * recorded cannot be rewritten by them either.
 *
 * @module
 */
import { sha256Hex } from "../../kit/trust/file_store.ts";
import { writePrivateFile } from "../../kit/private_file.ts";

/** The record folder in `$HEL_HOME`. */
export const RECORDS_FOLDER = "session-records";

async function recordPath(helHome: string, id: string): Promise<string> {
  const key = await sha256Hex(new TextEncoder().encode(id));
  return `${helHome}/${RECORDS_FOLDER}/${key}`;
}

/**
 * Records that hel created session `id` for `project`. A failure is swallowed: the run goes
 * on, and a later `--resume` of this session says that hel has no record of it.
 */
export async function recordSession(helHome: string, project: string, id: string): Promise<void> {
  try {
    await Deno.mkdir(`${helHome}/${RECORDS_FOLDER}`, { recursive: true, mode: 0o700 });
    await writePrivateFile(
      await recordPath(helHome, id),
      JSON.stringify({ id, project, created: new Date().toISOString() }) + "\n",
    );
  } catch { /* see above */ }
}

/** The project hel recorded creating session `id` for, or undefined when it did not. */
export async function recordedProject(helHome: string, id: string): Promise<string | undefined> {
  try {
    const record = JSON.parse(await Deno.readTextFile(await recordPath(helHome, id)));
    return record?.id === id && typeof record.project === "string" ? record.project : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes hel's record of session `id` when it was made for `project`, once its folder is
 * gone: a record left behind would let a folder forged later under that id be resumed.
 */
export async function forgetSession(helHome: string, project: string, id: string): Promise<void> {
  if (await recordedProject(helHome, id) !== project) return;
  await Deno.remove(await recordPath(helHome, id)).catch(() => {});
}
