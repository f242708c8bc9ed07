/**
 * Finding programs on a PATH, so tools start them by absolute path and can say clearly which
 * package is missing.
 *
 * @module
 */

/** Absolute path of an executable `name` on `path` (default: hel's PATH), or undefined. */
export function findOnPath(name: string, path = Deno.env.get("PATH") ?? ""): string | undefined {
  // A path is not searched for: "bin" + "//usr/bin/setsid" would name a file in the project.
  if (name.includes("/")) return undefined;
  for (const dir of path.split(":")) {
    if (dir === "") continue;
    const candidate = `${dir}/${name}`;
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}
