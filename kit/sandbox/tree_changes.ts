import { errorMessage } from "../../core/errors.ts";
/**
 * Which folders of the project changed since a moment: the cheap half of noticing a git
 * repository a sandboxed program planted. Creating, renaming or removing an entry sets the
 * folder's ctime to the kernel's clock, and no program can set ctime back (`touch -d` sets
 * mtime, and sets ctime to now while doing so). So after a program ends, only folders whose
 * ctime is not older than the previous look need to be read again; the rest keep the entries
 * they had. Checking every known folder's ctime is still one `stat` per folder, but no folder
 * is listed again: for a tree of 100,000 files in 11,000 folders some 35 ms of CPU, against
 * most of a second to list it. (Kernel notifications would avoid even that, but inotify
 * needs a watch per folder, runs into the user's limit on large trees, and Deno's recursive
 * watcher follows symbolic links out of the project.)
 *
 * @module
 */

/**
 * How far before the previous look a ctime still counts as new: the kernel stamps times from
 * a clock that lags the one `Date.now()` reads by up to a tick, and some file systems keep
 * whole seconds only. Folders changed this shortly before a look are just read once more.
 */
export const CLOCK_MARGIN_MS = 2_000;

/** A folder as read: its entries' names and which of them are folders. */
export interface Listing {
  names: string[];
  /** An entry whose name cannot be spelled here (not UTF-8) or that could not be read. */
  unreadable?: string;
}

/** The folders of a tree and their sub-folders, kept between looks. */
export class DirectoryTree {
  readonly #children = new Map<string, Set<string>>();

  /**
   * `root` is canonical; `skip` are folders never read (hel's own `.hel`, which programs
   * cannot write and hel writes all the time).
   */
  constructor(readonly root: string, private readonly skip: ReadonlySet<string> = new Set()) {}

  /** How many folders are known. */
  get size(): number {
    return this.#children.size;
  }

  /** The known folders whose own name passes `test` (e.g. every nested `.hel`), sorted. */
  foldersNamed(test: (name: string) => boolean): string[] {
    return [...this.#children.keys()]
      .filter((dir) => dir !== this.root && test(dir.slice(dir.lastIndexOf("/") + 1))).sort();
  }

  /** Reads the whole tree; every folder is returned, as all of them are new. */
  scan(): Promise<Map<string, Listing>> {
    this.#children.clear();
    const read = new Map<string, Listing>();
    return this.#walk(this.root, read).then(() => read);
  }

  /**
   * The folders created or changed since `since` (milliseconds since the epoch, the start of
   * the previous look), each read again; folders that are gone are forgotten.
   */
  async changedSince(since: number): Promise<Map<string, Listing>> {
    const candidates = this.#candidates(since - CLOCK_MARGIN_MS);
    const read = new Map<string, Listing>();
    const depth = (path: string) => path.split("/").length;
    for (const dir of [...candidates].sort((a, b) => depth(a) - depth(b))) {
      if (!this.#children.has(dir) || read.has(dir)) continue; // forgotten with a parent
      let info: Deno.FileInfo | undefined;
      try {
        info = Deno.lstatSync(dir);
      } catch {
        // Gone: its parent changed too and forgets it.
      }
      if (!info?.isDirectory) {
        this.#forget(dir);
        continue;
      }
      const listing = this.#list(dir, read);
      for (const old of this.#children.get(dir) ?? []) {
        if (!listing.has(old)) this.#forget(`${dir}/${old}`);
      }
      for (const name of listing) {
        const path = `${dir}/${name}`;
        if (!this.#children.has(path)) await this.#walk(path, read);
      }
      this.#children.set(dir, listing);
    }
    return read;
  }

  /** Reads `dir` and every folder under it. */
  async #walk(dir: string, read: Map<string, Listing>): Promise<void> {
    const stack = [dir];
    let since = 0;
    while (stack.length > 0) {
      const next = stack.pop()!;
      const listing = this.#list(next, read);
      this.#children.set(next, listing);
      for (const name of listing) stack.push(`${next}/${name}`);
      // Let timers and signals through on a large tree.
      if (++since % 500 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  /** Lists `dir` into `read`; returns the names of its sub-folders that are read too. */
  #list(dir: string, read: Map<string, Listing>): Set<string> {
    const folders = new Set<string>();
    const names: string[] = [];
    const listing: Listing = { names };
    try {
      for (const entry of Deno.readDirSync(dir)) {
        names.push(entry.name);
        const path = `${dir}/${entry.name}`;
        // Deno spells a name that is not UTF-8 with U+FFFD, and then cannot open it.
        if (entry.name.includes("\uFFFD") && !exists(path)) listing.unreadable ??= entry.name;
        else if (entry.isDirectory && !this.skip.has(path)) folders.add(entry.name);
      }
    } catch (error) {
      listing.unreadable = `(${errorMessage(error).replace(/ \(os error \d+\).*/, "")})`;
    }
    read.set(dir, listing);
    return folders;
  }

  #forget(dir: string): void {
    for (const child of this.#children.get(dir) ?? []) this.#forget(`${dir}/${child}`);
    this.#children.delete(dir);
  }

  /**
   * Known folders whose ctime is not older than `after`, or that cannot be looked at. A `stat`
   * from here costs about what `find` spends natively per folder (some 3 µs of CPU, most of it
   * the kernel's path walk), without starting a process.
   */
  #candidates(after: number): string[] {
    // Deno gives ctime in whole seconds: a second more of margin.
    const from = after - 1_000;
    return [...this.#children.keys()].filter((dir) => {
      try {
        return (Deno.lstatSync(dir).ctime?.getTime() ?? Infinity) >= from;
      } catch {
        return true;
      }
    });
  }
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
