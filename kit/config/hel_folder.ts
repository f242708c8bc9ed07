/**
 * The project's `.hel/` folder, created the one way whoever needs it first (a session, `hel
 * config set --project`, `hel mcp add --scope project`, a rule saved from the chat): mode 0700,
 * refused when a link or a file stands in its place, with a `.gitignore` that keeps hel's own
 * state out of git and leaves the configuration beside it to be shared.
 *
 * @module
 */
import { UnsafePathError, writeNewFile } from "../safe_write.ts";

/**
 * What `.hel/.gitignore` says when hel creates the folder: hel's own state is ignored, the files
 * people write there (settings.jsonc, mcp.json, hooks.json, their scripts) are not. An existing
 * `.gitignore` is the project's and is never rewritten.
 */
export const HEL_FOLDER_GITIGNORE =
  "# hel's own state in this project; the configuration beside it " +
  "is meant to be shared\nsessions/\nhistory.jsonl\n.*.lock\n.*.tmp\n";

/** `<project>/.hel`, created with its `.gitignore` when missing; throws when it is no folder. */
export async function makeHelFolder(project: string): Promise<string> {
  const folder = `${project}/.hel`;
  try {
    await Deno.mkdir(folder, { mode: 0o700 });
    await writeNewFile(folder, `${folder}/.gitignore`, HEL_FOLDER_GITIGNORE, { mode: 0o644 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    const info = await Deno.lstat(folder);
    if (!info.isDirectory) {
      throw new UnsafePathError(
        folder,
        `${folder} must be a real directory (found a symlink or file); move it away`,
      );
    }
  }
  return folder;
}
