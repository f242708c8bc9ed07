/**
 * Files hel keeps for the user outside any project (`$HEL_HOME/trust.json`, the hooks' file
 * pins): written whole or not at all, mode 0600, and changed by one hel process at a time.
 *
 * @module
 */

/**
 * Replaces `path` with `text` atomically, mode 0600: a fresh temporary file beside it, synced,
 * then renamed over it. A power cut or a failure leaves the old file, never a partial one.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(temp, text, { createNew: true, mode: 0o600 });
    // On disk before the rename: a power cut must not leave an empty file in its place.
    using file = await Deno.open(temp, { write: true });
    await file.sync();
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * Runs a read-modify-write while holding an exclusive lock on `lockPath` (created mode 0600),
 * so two hel processes changing the same file at once both keep their change.
 */
export async function withFileLock<T>(lockPath: string, change: () => Promise<T>): Promise<T> {
  const lock = await Deno.open(lockPath, { create: true, write: true, mode: 0o600 });
  try {
    await lock.lock(true);
    return await change();
  } finally {
    lock.close(); // closing releases the lock
  }
}
