/**
 * Reads the submodule paths (gitlinks, mode 160000) from a git index file, without running
 * git: running git on the user's machine is what a planted configuration would exploit. Knows
 * index versions 2, 3 and 4 and both object formats (SHA-1, SHA-256); anything it cannot parse
 * yields no paths.
 *
 * @module
 */
import { type FileIdentity, identityOf, sameIdentity } from "../file_identity.ts";

const GITLINK = 0o160000;
const TYPE_MASK = 0o170000;
/** ctime, mtime (seconds and nanoseconds), dev, ino, mode, uid, gid, size: 32 bits each. */
const STAT_BYTES = 40;
const EXTENDED = 0x4000;
const NAME_MASK = 0x0fff;

/** Parses `bytes` as an index whose object names are `hashBytes` long; undefined if it is not. */
export function parseGitlinks(bytes: Uint8Array, hashBytes: number): string[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 4)) !== "DIRC") {
    return undefined;
  }
  const version = view.getUint32(4);
  if (version < 2 || version > 4) return undefined;
  const count = view.getUint32(8);
  const decoder = new TextDecoder();
  const links: string[] = [];
  let previous: Uint8Array = new Uint8Array(0);
  let at = 12;
  for (let i = 0; i < count; i++) {
    const start = at;
    const fixed = STAT_BYTES + hashBytes + 2;
    if (at + fixed > bytes.length) return undefined;
    const mode = view.getUint32(at + 24);
    const flags = view.getUint16(at + STAT_BYTES + hashBytes);
    at += fixed;
    if (flags & EXTENDED) {
      if (version < 3) return undefined;
      at += 2;
    }
    let name: Uint8Array;
    if (version === 4) {
      const strip = varint(bytes, at);
      if (!strip || strip.value > previous.length) return undefined;
      at = strip.next;
      const end = bytes.indexOf(0, at);
      if (end === -1) return undefined;
      const kept = previous.subarray(0, previous.length - strip.value);
      name = new Uint8Array(kept.length + end - at);
      name.set(kept);
      name.set(bytes.subarray(at, end), kept.length);
      at = end + 1;
    } else {
      const end = bytes.indexOf(0, at);
      if (end === -1) return undefined;
      name = bytes.subarray(at, end);
      // Entries are padded with 1 to 8 NUL bytes to a multiple of eight.
      at = start + ((at - start + name.length + 8) & ~7);
    }
    const length = flags & NAME_MASK;
    if (length < NAME_MASK ? length !== name.length : name.length < NAME_MASK) return undefined;
    if (at > bytes.length) return undefined;
    previous = name;
    if ((mode & TYPE_MASK) === GITLINK) links.push(decoder.decode(name));
  }
  return links;
}

/** git's offset varint (index v4 prefix lengths). */
function varint(bytes: Uint8Array, at: number): { value: number; next: number } | undefined {
  if (at >= bytes.length) return undefined;
  let byte = bytes[at++]!;
  let value = byte & 0x7f;
  while (byte & 0x80) {
    if (at >= bytes.length || value > 0xffffff) return undefined;
    byte = bytes[at++]!;
    value = ((value + 1) * 128) + (byte & 0x7f);
  }
  return { value, next: at };
}

const cache = new Map<string, { identity: FileIdentity; paths: string[] }>();

/** Larger indexes are not read: the largest repositories' indexes are a few hundred MiB. */
export const INDEX_MAX_BYTES = 512 * 1024 * 1024;

/**
 * The submodule paths recorded in the index at `indexPath` (relative to the working tree), or
 * none when there is no index or it cannot be parsed. Cached while the file keeps its identity
 * (device, inode, size, mtime, ctime; git replaces the index by renaming a new file over it):
 * the sandbox asks before every command, and parsing a large index takes tens of milliseconds.
 */
export async function submodulePaths(indexPath: string): Promise<string[]> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(indexPath);
  } catch {
    return [];
  }
  const identity = identityOf(info);
  const cached = cache.get(indexPath);
  if (cached && sameIdentity(cached.identity, identity)) return cached.paths;
  let paths: string[] = [];
  try {
    // A command can write the index (where it made the repository): never load gigabytes.
    if (info.size > INDEX_MAX_BYTES) throw new Error("too large");
    const bytes = await Deno.readFile(indexPath);
    paths = parseGitlinks(bytes, 20) ?? parseGitlinks(bytes, 32) ?? [];
  } catch {
    // Unreadable: no submodules known.
  }
  cache.set(indexPath, { identity, paths });
  return paths;
}
