/**
 * Workspace confinement for the file tools. A path is resolved against the working directory,
 * symlinks are resolved with `realPath` (for a file about to be created, the realPath of its
 * parent), and the decision is taken on that canonical path: it must lie inside the working
 * directory and have no component named `.hel` in any letter case or other spelling that a
 * name-folding file system would take for it. The single exception is the
 * current session's spill folder, which `read_file` may read. Writes are refused, in addition,
 * on any path with a `.git` component (in any letter case) and in the git folders the project's
 * `.git` file names: git runs programs its metadata names, outside the sandbox.
 *
 * Deno has no `openat`/`O_NOFOLLOW`, so a swap between check and use is narrowed by opening the
 * checked path and comparing the handle with a fresh lookup ({@link openVerified}); bash and
 * the search tools are kept out of `.hel` by the sandbox, not by this module.
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { isWithin, touchesGit, touchesProtected } from "../../../kit/mod.ts";

/** hel's folder, which the file tools never touch. */
const PROTECTED = ".hel";

/** Where the file tools may act. Both paths are canonical (symlinks resolved). */
export interface Workspace {
  project: string;
  /** The current session's spill folder: readable by `read_file`, nothing else. */
  spillDir: string;
  /**
   * `$HEL_HOME` (canonical) when it lies inside the project: the trust store there is refused
   * like `.hel`, so the model cannot approve configurations for itself.
   */
  helHome?: string;
  /**
   * Git folders inside the project that a `.git` file or link names (canonical; see
   * `gitMetadata`): refused for writes like a `.git` folder. Asked at each write, as a command
   * can create such a `.git` file during the session.
   */
  gitDirs?: () => Promise<readonly string[]>;
  /** Whether bash may change `.git` (`--allow-git-writes` or `--sandbox off`): for the advice. */
  gitThroughBash?: boolean;
}

/** A confined path, or why it was refused (a model-facing text). */
export type Resolved =
  | { ok: true; path: string; exists: boolean }
  | { ok: false; text: string };

/** What the caller wants to do with the path. */
export interface ResolveOptions {
  /** The path may name a file that does not exist yet (its parent must exist). */
  create?: boolean;
  /** The current session's spill files are allowed (read_file only). */
  allowSpill?: boolean;
  /** The path is to be written: git metadata is refused too. */
  write?: boolean;
}

function gitText(input: string, viaLink: boolean, throughBash: boolean): string {
  const how = viaLink ? "resolves through a symbolic link into" : "is inside";
  const instead = throughBash
    ? "run git commands with bash instead (git add, git commit)"
    : "ask the user to run the git commands that change the repository";
  return `${input}: refused because it ${how} git's metadata (.git). git runs programs named ` +
    "there (hooks, core.fsmonitor) on the user's machine, outside the sandbox, so file tools " +
    `never change it; reading it is allowed. To change the repository, ${instead}`;
}

function outsideText(input: string, project: string, viaLink: boolean): string {
  const how = viaLink ? "resolves through a symbolic link to a location" : "is";
  return `${input}: refused because it ${how} outside the working directory ${project}; ` +
    "file tools only act on files inside it (use a path relative to the working directory)";
}

function protectedText(input: string, viaLink: boolean, allowSpill: boolean): string {
  const how = viaLink ? "resolves through a symbolic link into" : "is inside";
  const spill = allowSpill ? " (only the current session's spill files are readable)" : "";
  return `${input}: refused because it ${how} hel's protected .hel folder, which holds ` +
    `sessions, hooks and settings; file tools cannot read or change it${spill}`;
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const name = typeof code === "string" ? code : (error as Error).name;
  // The two a model can cause on purpose get words, so it knows what to change.
  if (name === "ELOOP") {
    return "ELOOP: too many levels of symbolic links, a link loop or a chain of over 40 links";
  }
  if (name === "ENAMETOOLONG") {
    return "ENAMETOOLONG: a name in the path is over 255 bytes or the path over 4,096; use a " +
      "shorter path";
  }
  return name;
}

/** A path as messages show it: a very long one is cut in the middle, so it cannot drown them. */
function shownPath(path: string): string {
  if (path.length <= 300) return path;
  return `${path.slice(0, 200)}…${path.slice(-60)} (a path of ${path.length} characters)`;
}

/**
 * Resolves a model-given path to a canonical path inside the workspace, or explains why not.
 * Never throws.
 */
export async function resolveInWorkspace(
  workspace: Workspace,
  given: string,
  options: ResolveOptions = {},
): Promise<Resolved> {
  const { project, spillDir } = workspace;
  const allowSpill = options.allowSpill === true;
  if (given.includes("\0")) {
    return { ok: false, text: "path contains a NUL character; give a plain file path" };
  }
  if (given.trim() === "") return { ok: false, text: "path must be a non-empty string" };
  const lexical = resolve(project, given);
  const input = shownPath(given);
  const spillCandidate = allowSpill && isWithin(spillDir, lexical);
  // Refused before touching the disk, so a .hel path that does not exist yet is refused too.
  if (!spillCandidate && isWithin(project, lexical) && touchesProtected(project, lexical)) {
    return { ok: false, text: protectedText(input, false, allowSpill) };
  }
  const gitDirs = options.write === true ? await workspace.gitDirs?.() ?? [] : [];
  const git = (path: string) =>
    options.write === true &&
    (touchesGit(project, path) || gitDirs.some((dir) => isWithin(dir, path)));
  const throughBash = workspace.gitThroughBash === true;
  if (isWithin(project, lexical) && git(lexical)) {
    return { ok: false, text: gitText(input, false, throughBash) };
  }

  let canonical: string;
  let exists = true;
  try {
    canonical = await Deno.realPath(lexical);
  } catch (error) {
    if (!isWithin(project, lexical) && !spillCandidate) {
      return { ok: false, text: outsideText(input, project, false) };
    }
    if (!(error instanceof Deno.errors.NotFound)) {
      return { ok: false, text: `${input}: cannot resolve the path (${errorCode(error)})` };
    }
    if (!options.create) {
      return { ok: false, text: `${input}: no such file or directory` };
    }
    const parent = await parentOf(lexical, input);
    if (!parent.ok) return parent;
    canonical = join(parent.path, basename(lexical));
    exists = false;
  }

  const viaLink = canonical !== lexical;
  if (allowSpill && isWithin(spillDir, canonical)) return { ok: true, path: canonical, exists };
  if (!isWithin(project, canonical)) {
    return { ok: false, text: outsideText(input, project, viaLink) };
  }
  if (touchesProtected(project, canonical)) {
    return { ok: false, text: protectedText(input, viaLink, allowSpill) };
  }
  if (git(canonical)) return { ok: false, text: gitText(input, viaLink, throughBash) };
  if (workspace.helHome && isWithin(workspace.helHome, canonical)) {
    return {
      ok: false,
      text: `${input}: refused because it is inside hel's own folder ($HEL_HOME), which holds ` +
        "the trust records; file tools cannot read or change it",
    };
  }
  return { ok: true, path: canonical, exists };
}

/** The canonical parent of a path about to be created; a dangling leaf link is refused. */
async function parentOf(lexical: string, input: string): Promise<Resolved> {
  try {
    const leaf = await Deno.lstat(lexical);
    if (leaf.isSymlink) {
      return {
        ok: false,
        text: `${input}: refused because it is a symbolic link whose target does not exist; ` +
          "write to a real path instead",
      };
    }
  } catch {
    // Nothing at the leaf: the usual case for a new file.
  }
  try {
    return { ok: true, path: await Deno.realPath(dirname(lexical)), exists: true };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return {
        ok: false,
        text: `${input}: the parent folder does not exist; create the folder first or ` +
          "choose an existing one",
      };
    }
    return { ok: false, text: `${input}: cannot resolve the parent folder (${errorCode(error)})` };
  }
}

/**
 * True when a file with more than one name shares its inode with a file under the project's
 * `.hel`: a hard link made from outside hel would otherwise expose protected content.
 */
export async function hardLinkedIntoProtected(
  project: string,
  info: Deno.FileInfo,
): Promise<boolean> {
  if ((info.nlink ?? 1) <= 1 || !info.isFile) return false;
  const pending = [`${project}/${PROTECTED}`];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    try {
      for await (const entry of Deno.readDir(dir)) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory) pending.push(path);
        if (!entry.isFile) continue;
        const other = await Deno.lstat(path);
        if (other.ino === info.ino && other.dev === info.dev) return true;
      }
    } catch {
      // An unreadable folder holds nothing we could compare.
    }
  }
  return false;
}

/**
 * Opens a checked canonical path and verifies that the handle is the file the path names now
 * (same device and inode, still canonical), so a symlink swapped in after the check is caught.
 * A hard link to a file in `.hel` is refused too.
 */
export async function openVerified(
  workspace: Workspace,
  path: string,
  input: string,
  options: Deno.OpenOptions,
): Promise<{ ok: true; file: Deno.FsFile; info: Deno.FileInfo } | { ok: false; text: string }> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, options);
  } catch (error) {
    return { ok: false, text: `${input}: cannot open (${errorCode(error)})` };
  }
  let info: Deno.FileInfo | undefined;
  try {
    info = await file.stat();
    const [now, canonical] = await Promise.all([Deno.lstat(path), Deno.realPath(path)]);
    if (canonical !== path || info.dev !== now.dev || info.ino !== now.ino) {
      file.close();
      if (options.createNew) await removeCreated(path, info);
      return {
        ok: false,
        text: `${input}: the file changed while it was being opened; try again`,
      };
    }
    if (
      !isWithin(workspace.spillDir, path) &&
      await hardLinkedIntoProtected(workspace.project, info)
    ) {
      file.close();
      return {
        ok: false,
        text: `${input}: refused because it is a hard link to a file in hel's protected .hel ` +
          "folder; file tools cannot read or change it",
      };
    }
    return { ok: true, file, info };
  } catch (error) {
    file.close();
    if (options.createNew && info) await removeCreated(path, info);
    return { ok: false, text: `${input}: cannot open (${errorCode(error)})` };
  }
}

/**
 * Removes the empty file an exclusive create made where a swapped-in link led (into `.hel`, or
 * outside), if that link still leads there and it is still that file. Without `openat` the
 * creation itself cannot be prevented; this keeps it from staying behind.
 */
async function removeCreated(path: string, created: Deno.FileInfo): Promise<void> {
  try {
    const landed = await Deno.realPath(path);
    const found = await Deno.lstat(landed);
    if (found.dev === created.dev && found.ino === created.ino && found.size === 0) {
      await Deno.remove(landed);
    }
  } catch {
    // The link is gone already: the stray file cannot be found again by this path.
  }
}
