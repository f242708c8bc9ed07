/**
 * Git repositories a sandboxed program planted or changed anywhere in the project: a `.git`
 * folder or file in any folder, or a bare layout (`HEAD`, `objects/`, `refs/`) in any folder,
 * the project itself included. git obeys their settings outside the sandbox (`core.fsmonitor`
 * at every `git status`, also a shell prompt's; `core.hooksPath` and hooks; filters; ...), so
 * hel tells the model and the person what appeared, and the sandbox binds their settings
 * read-only for later programs.
 *
 * One watch per project, shared by every sandbox there (commands, hooks): it reads the tree
 * once, then after each program only what changed (see tree_changes.ts), and it remembers
 * every repository's settings to notice a change to them.
 *
 * @module
 */
import { relative } from "node:path";
import { findSystemProgram } from "../process/group.ts";
import { isWithin, touchesProtected } from "../paths.ts";
import {
  gitDirLayout,
  type GitRepository,
  type Identity,
  identity,
  inspectRepository,
  isGitDir,
  namedGitDir,
  oneLine,
} from "./git_repository.ts";
import { CLOCK_MARGIN_MS, DirectoryTree } from "./tree_changes.ts";

/** A repository that appeared or whose program settings changed, or a folder hel cannot read. */
export interface GitChange {
  kind: "created" | "changed" | "unreadable";
  /** The git folder (or the unreadable entry), as shown: relative to the project. */
  path: string;
  /** The `.git` files naming it, as shown. */
  namedBy: string[];
  /** Settings that run programs, and hooks; empty when there are none. */
  programs: string[];
}

/** What a watch needs to know. */
export interface GitWatchOptions {
  /** Canonical project folder. */
  project: string;
  /** Folders never read (hel's own `.hel`: programs cannot write it, hel writes it often). */
  skip?: readonly string[];
  /** The environment children get: `PATH` finds git (never in the project), `HOME` for `~/`. */
  env: Record<string, string>;
}

/** Watches one project's git repositories. */
export class GitWatch {
  readonly #tree: DirectoryTree;
  readonly #repos = new Map<string, GitRepository>();
  /** `.git` files and links, with the git folder each names. */
  readonly #pointers = new Map<string, { id: Identity; target: string | undefined }>();
  readonly #unreadable = new Set<string>();
  readonly #changes: GitChange[] = [];
  readonly #git: string | undefined;
  #since = 0;
  #busy: Promise<unknown>;

  constructor(private readonly options: GitWatchOptions) {
    this.#tree = new DirectoryTree(options.project, new Set(options.skip ?? []));
    this.#git = findSystemProgram("git", options.env.PATH, options.project);
    // A tree that cannot be read is looked at again by the next look.
    this.#busy = this.#look(false).catch(() => []);
  }

  /** The settings of every repository known, inside the project, to bind read-only. */
  async readOnly(): Promise<string[]> {
    await this.#busy;
    const { project } = this.options;
    const paths = [...this.#repos.values()].flatMap((repo) => repo.settings)
      .flatMap((path) => canonicalInside(project, path)).sort();
    // A folder bound covers what is in it (sorted, so a folder comes before its files).
    return paths.filter((path, i) => !paths.slice(0, i).some((kept) => isWithin(kept, path)));
  }

  /**
   * The project's folders whose own name passes `test`, as of the previous look (the sandbox
   * hides every nested `.hel` so; see hel_folders.ts).
   */
  async foldersNamed(test: (name: string) => boolean): Promise<string[]> {
    await this.#busy;
    return this.#tree.foldersNamed(test);
  }

  /**
   * Looks for repositories created or changed since the previous look: call when a sandboxed
   * program has ended (its processes are gone, so nothing changes behind the look). Returns
   * what it found, also kept for {@link changes}. Never throws.
   */
  check(): Promise<GitChange[]> {
    const look = this.#busy.then(() => this.#look(true)).catch(() => []);
    this.#busy = look;
    return look;
  }

  /** Everything found since the watch began, for the report at the end of the run. */
  get changes(): readonly GitChange[] {
    return this.#changes;
  }

  async #look(report: boolean): Promise<GitChange[]> {
    const started = Date.now();
    const since = this.#since;
    // Without a tree read whole (the first reading failed), only reading it all is sound.
    const listings = report && this.#tree.size > 0
      ? await this.#tree.changedSince(since)
      : await this.#tree.scan();
    const found: GitChange[] = [];
    const candidates = new Set<string>();
    for (const [dir, listing] of listings) {
      if (gitDirLayout(listing.names)) candidates.add(dir);
      for (const name of listing.names.filter((name) => name.toLowerCase() === ".git")) {
        const path = `${dir}/${name}`;
        if (!this.#pointers.has(path) && !isFolder(path)) {
          this.#pointers.set(path, { id: { key: "new", ctime: 0 }, target: undefined });
        }
      }
      const entry = listing.unreadable && `${dir}/${listing.unreadable}`;
      if (entry && !this.#unreadable.has(entry)) {
        this.#unreadable.add(entry);
        if (report) {
          found.push({ kind: "unreadable", path: this.#show(entry), namedBy: [], programs: [] });
        }
      }
    }
    const recent = (id: Identity) => id.ctime >= since - CLOCK_MARGIN_MS;
    for (const [path, pointer] of this.#pointers) {
      const id = identity(path);
      // One naming nothing yet is asked again: the folder it names may have appeared.
      if (id.key === pointer.id.key && !recent(id) && pointer.target) continue;
      const target = id.key === "missing" ? undefined : namedGitDir(path);
      for (const dir of [pointer.target, target]) if (dir) candidates.add(dir);
      if (id.key === "missing") this.#pointers.delete(path);
      else this.#pointers.set(path, { id, target });
    }
    for (const repo of this.#repos.values()) {
      for (const [path, was] of repo.watched) {
        const id = identity(path);
        if (id.key !== was.key || recent(id)) {
          candidates.add(repo.gitDir);
          break;
        }
      }
    }
    for (const gitDir of candidates) {
      const change = await this.#inspect(gitDir);
      if (change && report) found.push(change);
    }
    this.#since = started;
    this.#changes.push(...found);
    return found;
  }

  /** Inspects one git folder; returns how it changed, if it did in a way to report. */
  async #inspect(gitDir: string): Promise<GitChange | undefined> {
    const old = this.#repos.get(gitDir);
    if (!isGitDir(gitDir)) {
      this.#repos.delete(gitDir);
      return undefined;
    }
    const namedBy = [...this.#pointers].filter(([, pointer]) => pointer.target === gitDir)
      .map(([path]) => path).sort();
    const repo = await inspectRepository(gitDir, namedBy, {
      git: this.#git,
      home: this.options.env.HOME,
      show: (path) => this.#show(path),
    });
    this.#repos.set(gitDir, repo);
    const change = {
      path: this.#show(gitDir),
      namedBy: namedBy.map((path) => this.#show(path)),
      programs: repo.programs,
    };
    if (!old) return { kind: "created", ...change };
    const same = (a: GitRepository) => JSON.stringify([a.programs, a.namedBy]);
    return same(old) === same(repo) ? undefined : { kind: "changed", ...change };
  }

  /** A path as people and the model see it: relative to the project, escaped. */
  #show(path: string): string {
    const { project } = this.options;
    return oneLine(isWithin(project, path) ? relative(project, path) || "." : path);
  }
}

/**
 * `path` with links resolved, when that lies inside the project, outside `.hel`: bubblewrap
 * follows links at both ends of a bind, so a planted `config -> ~/.ssh/id_rsa` bound as is
 * would show that key inside the sandbox.
 */
function canonicalInside(project: string, path: string): string[] {
  try {
    const real = Deno.realPathSync(path);
    const inside = real !== project && isWithin(project, real) && !touchesProtected(project, real);
    return inside ? [real] : [];
  } catch {
    return [];
  }
}

function isFolder(path: string): boolean {
  try {
    return Deno.lstatSync(path).isDirectory;
  } catch {
    return false;
  }
}

const watches = new Map<string, GitWatch>();

/**
 * The watch of `options.project`, started on first use (reading the whole tree once, in the
 * background; the first look waits for it). Every sandbox of the project shares it.
 */
export function gitWatch(options: GitWatchOptions): GitWatch {
  let watch = watches.get(options.project);
  if (!watch) {
    watch = new GitWatch(options);
    watches.set(options.project, watch);
  }
  return watch;
}

/** The watch of `project` if a sandbox there started one (another may be off), or undefined. */
export function knownGitWatch(project: string): GitWatch | undefined {
  return watches.get(project);
}

/** One line per change, for the model and for people. */
export function describeChange(change: GitChange): string {
  if (change.kind === "unreadable") {
    return `${change.path}: hel cannot read it (a name that is not UTF-8, or no permission), ` +
      "so it cannot tell whether a git repository is there";
  }
  const named = change.namedBy.length > 0 ? ` (named by ${change.namedBy.join(", ")})` : "";
  const where = change.path === "."
    ? ". (the project folder itself, as a bare repository)"
    : change.path;
  const programs = change.programs.length > 0
    ? `settings that run programs: ${change.programs.join("; ")}`
    : "no setting that runs a program yet";
  return `${where}${named}, ${change.kind}: ${programs}`;
}
