/**
 * The project's git metadata, which the model must not change: git runs programs named there
 * (`core.fsmonitor` at every `git status`, hooks at every commit) on the user's machine, outside
 * the sandbox, and shell prompts run `git status` on their own. File tools refuse any path with
 * a `.git` component; the sandbox binds the paths found here read-only.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { isWithin as within, touchesGit, touchesProtected } from "../paths.ts";
import { submodulePaths } from "./git_index.ts";

/** The name git looks for in a working tree. */
const GIT = ".git";

async function lstat(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch {
    return undefined;
  }
}

async function realPath(path: string): Promise<string | undefined> {
  try {
    return await Deno.realPath(path);
  } catch {
    return undefined;
  }
}

/** The text of a small regular file, or undefined. */
async function smallText(path: string): Promise<string | undefined> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.size > 4096) return undefined;
    return await Deno.readTextFile(path);
  } catch {
    return undefined;
  }
}

/** A project's git metadata: canonical paths inside the project. */
export interface GitMetadata {
  /** What the sandbox binds read-only. */
  readOnly: string[];
  /**
   * Git folders not called `.git`, named by a `.git` file or link (`--separate-git-dir`, a bare
   * repository beside its worktrees): file tools refuse to write there as in a `.git` folder.
   */
  namedGitDirs: string[];
}

/** Collects paths, skipping those outside the project, the project itself and repeats. */
class Collector {
  readOnly: string[] = [];
  namedGitDirs: string[] = [];
  constructor(private readonly project: string) {}

  keep(path: string | undefined, gitDir = false): void {
    const { project, readOnly } = this;
    if (!path || path === project || !within(project, path)) return;
    if (!readOnly.some((kept) => within(kept, path))) readOnly.push(path);
    if (gitDir && !touchesGit(project, path)) this.namedGitDirs.push(path);
  }

  result(): GitMetadata {
    return { readOnly: this.readOnly, namedGitDirs: this.namedGitDirs };
  }
}

/**
 * Collects the git metadata of the working tree `tree`: its `.git` (folder or file), and when
 * `.git` is a file (worktrees, submodules, `--separate-git-dir`) or a symbolic link, the git
 * folder it names and that folder's common folder. Outside the project the sandbox is read-only
 * already, so only paths inside count. Returns the tree's git folder, wherever it is.
 */
async function collectTree(found: Collector, tree: string): Promise<string | undefined> {
  const dotGit = `${tree}/${GIT}`;
  const info = await lstat(dotGit);
  if (!info) return undefined;
  if (info.isDirectory) {
    found.keep(dotGit);
    return dotGit;
  }
  let gitDir: string | undefined;
  if (info.isSymlink) {
    // The link itself can be replaced; what it points to can at least be kept unchanged.
    gitDir = await realPath(dotGit);
  } else if (info.isFile) {
    found.keep(dotGit);
    const named = (await smallText(dotGit))?.match(/^gitdir: *(.+?)\s*$/m)?.[1];
    if (named) gitDir = await realPath(resolve(tree, named));
  }
  if (!gitDir) return undefined;
  found.keep(gitDir, true);
  const common = (await smallText(`${gitDir}/commondir`))?.split("\n")[0]?.trim();
  if (common) found.keep(await realPath(resolve(gitDir, common)), true);
  return gitDir;
}

/**
 * The working tree git would use for the project: the project itself or the nearest folder
 * above it with a `.git` (hel run in a subfolder of a repository), or undefined.
 */
async function enclosingTree(project: string): Promise<string | undefined> {
  for (let dir = project;; dir = dirname(dir)) {
    if (await lstat(`${dir}/${GIT}`)) return dir;
    if (dir === dirname(dir)) return undefined;
  }
}

/**
 * What must stay unchanged so that git on the user's machine cannot be made to run the model's
 * programs: the project's own git metadata, and for each submodule in the index (`git status`
 * runs git in each of them) that lies in the project, its metadata, or the empty folder of one
 * not checked out, so no `.git` can be planted there. The repository may also enclose the
 * project (hel run in a subfolder): its submodules inside the project count too. Never throws.
 */
export async function gitMetadata(project: string): Promise<GitMetadata> {
  const found = new Collector(project);
  const root = await enclosingTree(project);
  if (!root) return found.result();
  // Outside the project nothing is kept (it is read-only in the sandbox already).
  const gitDir = await collectTree(found, root);
  if (!gitDir) return found.result();
  for (const sub of await submodulePaths(`${gitDir}/index`)) {
    const tree = await realPath(resolve(root, sub));
    const skip = !tree || tree === project || !within(project, tree) ||
      touchesGit(project, tree) || touchesProtected(project, tree);
    if (skip) continue;
    const before = found.readOnly.length;
    const subGitDir = await collectTree(found, tree);
    // Not checked out: keep its folder read-only, else a command could plant `.git` there.
    if (!subGitDir && found.readOnly.length === before && (await lstat(tree))?.isDirectory) {
      found.keep(tree);
    }
  }
  return found.result();
}
