/**
 * Every `.hel` folder in the project, nested ones included (a monorepo's `pkg/.hel` holds the
 * sessions and the trusted hook scripts of hel runs in `pkg/`). The sandbox hides each one, so
 * a sandboxed program can neither read another project's conversations nor rewrite the scripts
 * its hooks run.
 *
 * The search walks the project's folders without following links, skipping git's own folders
 * (which hold no projects) and the folders it hides anyway. It is bounded: past
 * {@link MAX_FOLDERS} folders it stops and says so, and the caller warns that deeper `.hel`
 * folders may stay visible. It costs about one folder read per folder: measured on the 2-core
 * development machine under load, 1.4 s for /usr (15,450 folders, 138,000 entries), 4.5 ms
 * for hel's own checkout (171 folders). So the first search starts when the sandbox is
 * created (while the model answers), and later ones are repeated before each program only
 * while they stay quick (see {@link FRESH_SEARCH_MS}).
 *
 * @module
 */
import { isHelName, isWithin } from "../paths.ts";
import type { SandboxSettings } from "./sandbox.ts";

/** At most this many folders are read in one search. */
export const MAX_FOLDERS = 50_000;

/** What one search found. */
export interface HelFolders {
  /** Canonical paths of the `.hel` folders below the project, the project's own excluded. */
  folders: string[];
  /** False when the search stopped at its bound before reading every folder. */
  complete: boolean;
}

/** Folder names that never hold a project hel runs in; their contents are not read. */
const SKIPPED = new Set([".git"]);

/**
 * Finds the `.hel` folders below `project` (canonical), the top-level `.hel` excluded (the
 * sandbox covers it already). A link named `.hel` counts by what it points to, when that is a
 * folder inside the project. One folder is read at a time: on a busy machine reading several
 * at once was slower, not faster.
 */
export async function findHelFolders(
  project: string,
  maxFolders = MAX_FOLDERS,
): Promise<HelFolders> {
  const found = new Set<string>();
  const queue = [project];
  for (let next = 0; next < queue.length; next++) {
    if (next >= maxFolders) return { folders: [...found].sort(), complete: false };
    const dir = queue[next]!;
    try {
      for await (const entry of Deno.readDir(dir)) {
        const path = `${dir === "/" ? "" : dir}/${entry.name}`;
        if (isHelName(entry.name)) {
          const target = entry.isSymlink
            ? await realFolder(path)
            : entry.isDirectory
            ? path
            : undefined;
          if (target && isWithin(project, target) && target !== `${project}/.hel`) {
            found.add(target);
          }
          continue; // Hidden whole: nothing below it needs a look.
        }
        if (entry.isDirectory && !SKIPPED.has(entry.name.toLowerCase())) queue.push(path);
      }
    } catch {
      // Gone or unreadable: nothing in it can be shown either.
    }
  }
  return { folders: [...found].sort(), complete: true };
}

async function realFolder(path: string): Promise<string | undefined> {
  try {
    const real = await Deno.realPath(path);
    return (await Deno.stat(real)).isDirectory ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A search this quick is repeated before every program, so a `.hel` made meanwhile (by the
 * person's hel in a subfolder, or by an earlier command) is hidden too. A slower one is
 * repeated in the background instead: each program hides what the last finished search found.
 */
export const FRESH_SEARCH_MS = 50;

/** The run's searches for nested `.hel` folders. */
export interface HelFolderSearch {
  /** The folders to hide from the next program. */
  current(): Promise<string[]>;
}

/** One search per run for all of its sandboxes: they share the run's settings object. */
const searches = new WeakMap<SandboxSettings, HelFolderSearch>();

/**
 * The searches of the run `settings` belong to; the first starts now (while the model
 * answers). A search cut short at its bound is reported once.
 */
export function helFolderSearch(settings: SandboxSettings): HelFolderSearch {
  let search = searches.get(settings);
  if (!search) {
    search = startSearches(settings);
    searches.set(settings, search);
  }
  return search;
}

function startSearches(settings: SandboxSettings): HelFolderSearch {
  let warned = false;
  const search = async () => {
    const started = performance.now();
    const found = await findHelFolders(settings.project);
    if (!found.complete && !warned) {
      warned = true;
      settings.warn?.(
        `the project has more than ${MAX_FOLDERS} folders, so hel stopped looking for ` +
          "nested .hel folders there; those it did not reach stay visible to sandboxed programs",
      );
    }
    return { folders: found.folders, ms: performance.now() - started };
  };
  let latest = search();
  let refreshing: Promise<void> | undefined;
  return {
    async current() {
      const last = await latest;
      if (last.ms <= FRESH_SEARCH_MS) {
        latest = search();
        return (await latest).folders;
      }
      refreshing ??= search().then((next) => {
        latest = Promise.resolve(next);
      }).finally(() => refreshing = undefined);
      return last.folders;
    },
  };
}
