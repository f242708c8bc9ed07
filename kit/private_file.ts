/**
 * Files hel keeps for the user outside any project (`$HEL_HOME/trust.json`, the hooks' file
 * pins): written whole or not at all, mode 0600, never through a link, and changed by one hel
 * process at a time.
 *
 * @module
 */
import { dirname } from "node:path";
import { openFileNoFollow, writeFileAtomic } from "./safe_write.ts";

/**
 * Replaces `path` with `text` atomically, mode 0600: a fresh temporary file beside it, synced,
 * then renamed over it. A power cut or a failure leaves the old file, never a partial one; a
 * link at `path` is refused, not followed.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  await writeFileAtomic(dirname(path), path, text, { mode: 0o600 });
}

/**
 * Runs a read-modify-write while holding an exclusive lock on `lockPath` (created mode 0600,
 * never through a link), so two hel processes changing the same file at once both keep theirs.
 */
export async function withFileLock<T>(lockPath: string, change: () => Promise<T>): Promise<T> {
  const lock = await openFileNoFollow(dirname(lockPath), lockPath, { mode: 0o600 });
  try {
    await lock.lock(true);
    return await change();
  } finally {
    lock.close(); // closing releases the lock
  }
}
