/**
 * What identifies one version of a file (device, inode, size and times), so a reader can tell
 * that a file it saw before was replaced or changed.
 *
 * @module
 */

/** What identifies one version of a file. */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number | null;
  ctimeMs: number | null;
}

/** The identity of the file a stat describes. */
export function identityOf(info: Deno.FileInfo): FileIdentity {
  return {
    dev: info.dev,
    ino: info.ino ?? 0,
    size: info.size,
    mtimeMs: info.mtime?.getTime() ?? null,
    ctimeMs: info.ctime?.getTime() ?? null,
  };
}

/** True when both describe the same, unchanged file. */
export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs;
}
