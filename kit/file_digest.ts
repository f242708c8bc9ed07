/**
 * Digests and previews of files the model may have written, read in pieces: a script a hook
 * runs can be gigabytes or a pipe, and neither may cost hel its memory or hang it.
 *
 * @module
 */
/** Bytes read at a time. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * The SHA-256 of the regular file at `path` as lowercase hex, read a piece at a time; undefined
 * when there is none (missing, a folder, a pipe, a device, unreadable).
 */
export async function sha256OfFile(path: string): Promise<string | undefined> {
  const file = await openRegular(path);
  if (!file) return undefined;
  try {
    // node:crypto costs every start a hundredth of a second or more to load; only hooks' scripts
    // are digested, so it is loaded then.
    const { createHash } = await import("node:crypto");
    const hash = createHash("sha256");
    const buffer = new Uint8Array(CHUNK_BYTES);
    for (let read = await file.read(buffer); read !== null; read = await file.read(buffer)) {
      hash.update(buffer.subarray(0, read));
    }
    return hash.digest("hex");
  } catch {
    return undefined;
  } finally {
    file.close();
  }
}

/**
 * The first `maxBytes` of the regular file at `path` and whether that was all of it; undefined
 * when there is no regular file there.
 */
export async function fileStart(
  path: string,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; complete: boolean } | undefined> {
  const file = await openRegular(path);
  if (!file) return undefined;
  try {
    const bytes = new Uint8Array(maxBytes + 1);
    let filled = 0;
    while (filled < bytes.length) {
      const read = await file.read(bytes.subarray(filled));
      if (read === null) break;
      filled += read;
    }
    return { bytes: bytes.subarray(0, Math.min(filled, maxBytes)), complete: filled <= maxBytes };
  } catch {
    return undefined;
  } finally {
    file.close();
  }
}

/** Opens `path` for reading only when it is a regular file (a pipe would block the open). */
async function openRegular(path: string): Promise<Deno.FsFile | undefined> {
  try {
    if (!(await Deno.stat(path)).isFile) return undefined;
    const file = await Deno.open(path, { read: true });
    if ((await file.stat()).isFile) return file;
    file.close();
  } catch {
    // Missing or unreadable: no file to read.
  }
  return undefined;
}
