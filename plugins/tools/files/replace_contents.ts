/**
 * Replacing a file's whole contents safely, for the tools that write (`write_file`,
 * `search_replace`).
 *
 * @module
 */
import { openVerified, type Workspace } from "../workspace/confinement.ts";

/**
 * Writes `bytes` as the whole contents of the checked canonical `path`. A new file is created
 * exclusively (a symlink planted after the check makes that fail instead of being followed);
 * an existing one is opened, verified, then truncated. Returns an error text or undefined.
 */
export async function replaceContents(
  workspace: Workspace,
  path: string,
  shown: string,
  bytes: Uint8Array,
  exists: boolean,
): Promise<string | undefined> {
  if (exists) {
    const info = await Deno.stat(path).catch(() => undefined);
    if (info?.isDirectory) return `${shown} is a directory; give a file path`;
    if (info && !info.isFile) return `${shown} is not a regular file; give a file path`;
  }
  const opened = await openVerified(
    workspace,
    path,
    shown,
    exists ? { write: true } : { write: true, createNew: true },
  );
  if (!opened.ok) return opened.text;
  using file = opened.file;
  try {
    await file.truncate(0);
    let done = 0;
    while (done < bytes.length) done += await file.write(bytes.subarray(done));
  } catch (error) {
    return `${shown}: could not write (${(error as Error).message})`;
  }
  return undefined;
}
