/**
 * Path questions the tools and the sandbox share: whether a path lies inside a folder, and
 * whether it names hel's `.hel` folder or git's `.git` under any spelling a name-folding file
 * system would accept.
 *
 * @module
 */
import { isAbsolute, relative, resolve } from "node:path";

/** hel's folder in a project. */
const PROTECTED = ".hel";
const GIT = ".git";

/** True when `child` is `parent` or lies below it, compared by path segments. */
export function isWithin(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel));
}

/**
 * A path component as file systems that fold names would see it: compatibility-normalized
 * (a fullwidth dot is a dot), without invisible characters (HFS+ ignores some), without
 * trailing dots and blanks (Windows drops them), in lower case. On Linux these spellings name
 * other folders; refusing them too costs nothing and holds wherever hel runs.
 */
function folded(part: string): string {
  return part.normalize("NFKC").replace(/[\u00ad\u200b-\u200f\u2060-\u206f\ufeff]/g, "")
    .replace(/[. ]+$/, (tail) => (tail === part ? tail : "")).toLowerCase();
}

/** True when a component of `path` relative to `project` folds to `.hel`. */
export function touchesProtected(project: string, path: string): boolean {
  const rel = relative(project, path);
  return rel.split("/").some((part) => folded(part) === PROTECTED);
}

/** True when a file name folds to `.hel` (hel's folder, under any spelling). */
export function isHelName(name: string): boolean {
  return folded(name) === PROTECTED;
}

/** True when a component of `path` relative to `project` folds to `.git`. */
export function touchesGit(project: string, path: string): boolean {
  const rel = relative(project, path);
  return rel.split("/").some((part) => folded(part) === GIT);
}

/**
 * A PATH without the folders that are relative or lie inside `project` (links resolved): the
 * model can write there (`.venv/bin`, `node_modules/.bin`), so a program found there would be
 * the model's. For programs that run outside the sandbox.
 */
export function pathOutside(path: string, project: string): string {
  return path.split(":").filter((dir) => {
    if (!isAbsolute(dir)) return false;
    let real = dir;
    try {
      real = Deno.realPathSync(dir);
    } catch {
      // A folder that does not exist yet could be created in the project; judge it as named.
    }
    return !isWithin(project, resolve(dir)) && !isWithin(project, real);
  }).join(":");
}
