/**
 * Finding the project's skills: each real folder `.agents/skills/<name>/` holding a regular
 * `SKILL.md`. Symlinked roots, symlinked folders or files, anything resolving outside the
 * project and malformed files are skipped with a warning; nothing outside the project (no
 * home or parent folders) is looked at.
 *
 * @module
 */
import { errorMessage } from "../../core/mod.ts";
import { lstatOrUndefined } from "../../kit/mod.ts";
import type { SkillFile } from "./front_matter.ts";

/** The root of the skills, relative to the project. */
export const SKILLS_ROOT = ".agents/skills";
/** Larger SKILL.md files are skipped. */
export const SKILL_MAX_BYTES = 1024 * 1024;

/** One skill of the catalog. */
export interface CatalogEntry {
  /** Project-relative path of its SKILL.md, e.g. `.agents/skills/deploy/SKILL.md`. */
  path: string;
  name: string;
  description: string;
}

/**
 * Reads and parses a skill file of the project, refusing symlinks, non-files, files over the
 * size limit and paths that resolve outside the project. Throws with the reason.
 */
export async function readSkillFile(project: string, path: string): Promise<SkillFile> {
  const absolute = `${project}/${path}`;
  const info = await Deno.lstat(absolute);
  if (info.isSymlink) throw new Error("SKILL.md must be a regular file, not a symlink");
  if (!info.isFile) throw new Error("SKILL.md must be a regular file");
  if (info.size > SKILL_MAX_BYTES) throw new Error("the file is larger than 1 MiB");
  const real = await Deno.realPath(absolute);
  if (real !== absolute) throw new Error("the skill resolves outside the project's skills folder");
  // The YAML parser is loaded with the first skill: a project without skills never needs it.
  const { parseSkillFile } = await import("./front_matter.ts");
  return parseSkillFile(await Deno.readTextFile(absolute));
}

/** The catalog, sorted by path; every skipped skill is reported through `warn`. */
export async function discoverSkills(
  project: string,
  warn: (text: string) => void,
): Promise<CatalogEntry[]> {
  for (const root of [".agents", SKILLS_ROOT]) {
    const info = await lstatOrUndefined(`${project}/${root}`);
    if (!info) return [];
    if (info.isSymlink || !info.isDirectory) {
      warn(`${root}: skill roots must be real project directories (not symlinks); no skills`);
      return [];
    }
  }
  const entries: CatalogEntry[] = [];
  for await (const entry of Deno.readDir(`${project}/${SKILLS_ROOT}`)) {
    const folder = `${SKILLS_ROOT}/${entry.name}`;
    if (entry.isSymlink) {
      warn(`${folder}: skill folders must be real directories in the project; skipped`);
      continue;
    }
    if (!entry.isDirectory) continue;
    const path = `${folder}/SKILL.md`;
    if (!await lstatOrUndefined(`${project}/${path}`)) continue;
    try {
      const skill = await readSkillFile(project, path);
      entries.push({ path, name: skill.name, description: skill.description });
    } catch (error) {
      warn(`${path}: ${errorMessage(error)}; skill skipped`);
    }
  }
  return entries.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
