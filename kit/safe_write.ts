/**
 * Writing files without following planted symbolic links. Every file hel writes (run records
 * and raw logs, spills, snapshots, session locks, the trust store, hook file pins, eval
 * results) goes through here, because a sandboxed command or a cloned repository can leave a
 * link where hel is about to write: `rec/raw/permissions.jsonl -> ~/.bashrc`.
 *
 * The caller names a root it trusts (the project, `$HEL_HOME`, a folder the user chose outside
 * the project); every folder below it up to the file must be a real folder, and the file itself
 * must not be a link. Deno has no `openat`/`O_NOFOLLOW`, so what can be checked is checked:
 * new files are created exclusively (`O_EXCL` never follows a link), whole files are written to
 * an exclusive temporary file and renamed over (a rename replaces, never follows), and an
 * existing file opened in place is compared with what was checked before (same device and
 * inode, one link). A folder swapped for a link during a write is noticed after the fact and
 * refused, though the bytes may by then have gone where it pointed.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep as SEP } from "node:path";

/** A write refused because a symbolic link (or something else than expected) was in the way. */
export class UnsafePathError extends Error {
  override name = "UnsafePathError";
  /** The path where the link or odd entry was found. */
  readonly path: string;

  constructor(path: string, message: string) {
    super(message);
    this.path = path;
  }
}

function linkRefusal(path: string, what: "file" | "folder"): UnsafePathError {
  let target = "";
  try {
    target = ` (to ${Deno.readLinkSync(path)})`;
  } catch { /* gone again: the message stands without it */ }
  return new UnsafePathError(
    path,
    `refused to write ${path}: a symbolic link was found there${target} where hel expected a ` +
      `${what}; hel never writes through links, since one planted by a command or a cloned ` +
      "repository could make it overwrite any file of yours. Remove the link (check what " +
      "created it), then run again",
  );
}

/** A folder or file as it was when checked. */
interface Identity {
  path: string;
  dev: number | null;
  ino: number | null;
}

const identity = (path: string, { dev, ino }: Deno.FileInfo): Identity => ({ path, dev, ino });
const sameEntry = (a: Identity, b: Deno.FileInfo) => a.dev === b.dev && a.ino === b.ino;

/** The lstat of `path`, or undefined when nothing is there. */
export async function lstatOrUndefined(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** The folders from just below `root` down to `dir`, outermost first. */
function foldersBelow(root: string, dir: string): string[] {
  const rel = relative(resolve(root), resolve(dir));
  if (rel === ".." || rel.startsWith(`..${SEP}`) || isAbsolute(rel)) {
    throw new Error(`${dir} is not inside ${root}`);
  }
  const folders: string[] = [];
  let current = resolve(root);
  for (const part of rel.split(SEP).filter((p) => p !== "")) {
    current = join(current, part);
    folders.push(current);
  }
  return folders;
}

function checkFolder(path: string, info: Deno.FileInfo): Identity {
  if (info.isSymlink) throw linkRefusal(path, "folder");
  if (!info.isDirectory) {
    throw new UnsafePathError(path, `cannot write under ${path}: it is not a folder; move it away`);
  }
  return identity(path, info);
}

/**
 * Creates the folders from `root` (trusted as it is, links included) down to `dir` (mode
 * `mode`, default 0700), refusing any that exists as a link or a file. Returns what was checked,
 * for {@link recheckFolders}.
 */
export async function makeFolderChain(root: string, dir: string, mode = 0o700) {
  const checked: Identity[] = [];
  for (const folder of foldersBelow(root, dir)) {
    let info = await lstatOrUndefined(folder);
    if (!info) {
      try {
        await Deno.mkdir(folder, { mode });
      } catch (error) {
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      }
      info = await Deno.lstat(folder);
    }
    checked.push(checkFolder(folder, info));
  }
  return checked;
}

/** Throws when a folder checked by {@link makeFolderChain} was since replaced (by a link). */
export async function recheckFolders(checked: readonly Identity[]): Promise<void> {
  for (const folder of checked) {
    const info = await lstatOrUndefined(folder.path);
    if (info?.isSymlink) throw linkRefusal(folder.path, "folder");
    if (!info || !sameEntry(folder, info)) {
      throw new UnsafePathError(
        folder.path,
        `refused to write under ${folder.path}: the folder was replaced while hel wrote there; ` +
          "check what else runs in this folder, then run again",
      );
    }
  }
}

/**
 * Throws when `path` exists as anything but a plain file; `inPlace` (written through an open,
 * not replaced by a rename) also requires that it has one name, as writing a hard link changes
 * the other name's file too.
 */
function checkExistingFile(path: string, info: Deno.FileInfo, inPlace: boolean): void {
  if (info.isSymlink) throw linkRefusal(path, "file");
  if (!info.isFile) {
    throw new UnsafePathError(path, `cannot write ${path}: it is not a plain file; move it away`);
  }
  if (inPlace && info.nlink !== null && info.nlink > 1) {
    throw new UnsafePathError(
      path,
      `refused to write ${path}: it is a hard link shared with another file, which writing ` +
        "would change too; remove it, then run again",
    );
  }
}

const bytesOf = (data: string | Uint8Array) =>
  typeof data === "string" ? new TextEncoder().encode(data) : data;

async function writeAll(file: Deno.FsFile, data: Uint8Array): Promise<void> {
  let written = 0;
  while (written < data.length) written += await file.write(data.subarray(written));
}

async function writeAndClose(
  file: Deno.FsFile,
  data: string | Uint8Array,
  { sync = false } = {},
): Promise<void> {
  try {
    await writeAll(file, bytesOf(data));
    if (sync) await file.sync();
  } finally {
    file.close();
  }
}

/** Options of the writers: modes of the file and of folders hel creates (0600, 0700). */
export interface SafeWriteOptions {
  mode?: number;
  folderMode?: number;
}

/**
 * Replaces `path` (below the trusted `root`) with `data`, whole or not at all: an exclusive
 * temporary file beside it, synced, renamed over it. Refuses when `path` or a folder on the way
 * is a link; a power cut or a failure leaves the old file.
 */
export async function writeFileAtomic(
  root: string,
  path: string,
  data: string | Uint8Array,
  options: SafeWriteOptions = {},
): Promise<void> {
  const folders = await makeFolderChain(root, dirname(path), options.folderMode);
  const existing = await lstatOrUndefined(path);
  if (existing) checkExistingFile(path, existing, false);
  // `.snapshot-<uuid>.tmp` for snapshot.json: a leftover is recognisable by its name.
  const stem = basename(path).replace(/\.[^.]*$/, "");
  const temp = `${dirname(path)}/.${stem}-${crypto.randomUUID()}.tmp`;
  try {
    // On disk before the rename: a power cut must not leave an empty file in its place.
    await writeAndClose(await openNew(temp, options.mode), data, { sync: true });
    await recheckFolders(folders);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * Writes a new file `path` (below `root`) that must not exist yet: created exclusively, so a
 * link, or any file, already there makes it fail.
 */
export async function writeNewFile(
  root: string,
  path: string,
  data: string | Uint8Array,
  options: SafeWriteOptions = {},
): Promise<void> {
  const folders = await makeFolderChain(root, dirname(path), options.folderMode);
  await writeAndClose(await openNew(path, options.mode), data);
  await recheckFolders(folders);
}

async function openNew(path: string, mode = 0o600): Promise<Deno.FsFile> {
  try {
    return await Deno.open(path, { write: true, createNew: true, mode });
  } catch (error) {
    const info = error instanceof Deno.errors.AlreadyExists && await lstatOrUndefined(path);
    if (info && info.isSymlink) throw linkRefusal(path, "file");
    throw error;
  }
}

/** How {@link openFileNoFollow} opens: `append` adds at the end, `truncate` empties first. */
export interface OpenNoFollowOptions extends SafeWriteOptions {
  append?: boolean;
  truncate?: boolean;
  read?: boolean;
}

/**
 * Opens `path` (below `root`) for writing, creating it when missing, without following a link:
 * an absent file is created exclusively; an existing one must be a plain file with one name,
 * and the file opened must be the one checked (same device and inode), else nothing is written
 * and the call throws. `truncate` empties it only after that check.
 */
export async function openFileNoFollow(
  root: string,
  path: string,
  options: OpenNoFollowOptions = {},
): Promise<Deno.FsFile> {
  const folders = await makeFolderChain(root, dirname(path), options.folderMode);
  let before = await lstatOrUndefined(path);
  if (!before) {
    try {
      const created = await openNew(path, options.mode);
      if (!options.read) return await checkedFolders(created, folders);
      created.close(); // opened again below with read access, and checked like any other
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    before = await Deno.lstat(path);
  }
  checkExistingFile(path, before, true);
  const file = await Deno.open(path, {
    read: options.read ?? false,
    write: !options.append,
    append: options.append ?? false,
  });
  try {
    const opened = await file.stat();
    if (!sameEntry(identity(path, before), opened) || !opened.isFile) {
      throw new UnsafePathError(
        path,
        `refused to write ${path}: it was replaced between hel's check and its open (a link ` +
          "may have been put there); check what else runs in this folder, then run again",
      );
    }
    await recheckFolders(folders);
    if (options.truncate) await file.truncate(0);
    return file;
  } catch (error) {
    file.close();
    throw error;
  }
}

/** `file`, once the folders above it are found unchanged; else it is closed and this throws. */
async function checkedFolders(file: Deno.FsFile, folders: readonly Identity[]) {
  try {
    await recheckFolders(folders);
    return file;
  } catch (error) {
    file.close();
    throw error;
  }
}

/** Appends `line` and a newline to `path` (below `root`), as {@link openFileNoFollow} opens. */
export async function appendLine(
  root: string,
  path: string,
  line: string,
  options: SafeWriteOptions = {},
): Promise<void> {
  using file = await openFileNoFollow(root, path, { ...options, append: true });
  await writeAll(file, bytesOf(`${line}\n`));
}
