/**
 * The busy lock of a session: an exclusive lock on `<session>/.active`, held for as long as a
 * hel process uses the session. The operating system releases it when the process ends, also
 * on a crash or SIGKILL, so a lock is never left stale.
 *
 * @module
 */
import { openFileNoFollow, UnsafePathError } from "../../kit/safe_write.ts";
import { UsageError } from "../../core/usage_error.ts";

/** A held session lock. */
export interface SessionLock {
  /** Releases the lock (also released by the OS when the process ends). */
  release(): void;
}

function activePath(sessionDir: string): string {
  return `${sessionDir}/.active`;
}

/**
 * Takes the lock of a session folder, or returns undefined when another process holds it.
 * `.active` is never opened through a link: a cloned repository's session could point it at
 * a file of the user's, which taking the lock empties. Such a link is refused with
 * a usage error naming it.
 */
export async function tryLockSession(sessionDir: string): Promise<SessionLock | undefined> {
  let file: Deno.FsFile;
  try {
    file = await openFileNoFollow(sessionDir, activePath(sessionDir), { read: true, mode: 0o600 });
  } catch (error) {
    // A setup error the person can act on, not a crash: the message names the link.
    if (error instanceof UnsafePathError) throw new UsageError(`session lock: ${error.message}`);
    throw error;
  }
  let locked = false;
  try {
    locked = await file.tryLock(true);
  } finally {
    if (!locked) file.close();
  }
  if (!locked) return undefined;
  try {
    // Who holds it, for the refusal message of the next process; the lock is what counts.
    await file.truncate(0);
    await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
  } catch { /* the pid is only a courtesy */ }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      try {
        file.close(); // closing the descriptor drops the lock
      } catch { /* already closed */ }
    },
  };
}

/** True when another process holds the session's lock. A folder without `.active` is idle. */
export async function isSessionBusy(sessionDir: string): Promise<boolean> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(activePath(sessionDir), { read: true, write: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
  try {
    const free = await file.tryLock(true);
    return !free;
  } finally {
    file.close();
  }
}

/** The process id written by the lock's holder, if it can be read. */
export async function sessionHolder(sessionDir: string): Promise<number | undefined> {
  try {
    const pid = Number((await Deno.readTextFile(activePath(sessionDir))).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
