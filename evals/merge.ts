/**
 * `deno task eval merge DIR...`: gathers the run folders of several results folders (the
 * shards of one lab, e.g. the artifacts of the GitHub workflow's matrix jobs) into one results
 * folder, so that `report` sees exactly the runs an unsharded run would have left. Shards are
 * disjoint slices of one plan, so a run found twice means the folders do not belong together:
 * the merge stops and names both. Folders are copied with their links left out (copyTree): a
 * downloaded artifact is another machine's output.
 *
 * @module
 */
import { resolve } from "node:path";
import { SpecError } from "./spec.ts";
import { copyTree, resetDir } from "./workspace.ts";

/** Runs merged per lab id. */
export type Merged = Map<string, number>;

async function folders(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) if (entry.isDirectory) names.push(entry.name);
  return names.sort();
}

async function isRun(dir: string): Promise<boolean> {
  return (await Deno.lstat(`${dir}/record.json`).catch(() => undefined))?.isFile === true;
}

/**
 * Copies every finished run under `<source>/<lab>/<run>/` of each source into
 * `<target>/<lab>/<run>/`; returns the number of runs per lab. A run that is in two sources, or
 * already in the target, is an error naming both places; nothing is copied then.
 */
export async function mergeResults(sources: string[], target: string): Promise<Merged> {
  const found = new Map<string, string>(); // `<lab>/<run>` → source folder
  for (const source of sources) {
    if (resolve(source) === resolve(target)) {
      throw new SpecError(`merge: ${source} is also the --results-dir; merge into another folder`);
    }
    let labs: string[];
    try {
      labs = await folders(source);
    } catch (error) {
      throw new SpecError(`merge: cannot read ${source}: ${(error as Error).message}`);
    }
    for (const lab of labs) {
      for (const run of await folders(`${source}/${lab}`)) {
        if (!await isRun(`${source}/${lab}/${run}`)) continue; // unfinished: a rerun redoes it
        const key = `${lab}/${run}`;
        const earlier = found.get(key);
        if (earlier !== undefined) {
          throw new SpecError(
            `merge: run ${key} is in both ${earlier} and ${source}; shards of one lab are ` +
              "disjoint, so these folders come from different splits or runs; merge one of them",
          );
        }
        if (await isRun(`${target}/${key}`)) {
          throw new SpecError(
            `merge: ${target}/${key} exists already; merge into an empty --results-dir`,
          );
        }
        found.set(key, source);
      }
    }
  }
  if (found.size === 0) {
    throw new SpecError(
      `merge: no finished runs in ${sources.join(", ")} (expected <dir>/<lab>/<run>/record.json)`,
    );
  }
  const merged: Merged = new Map();
  for (const [key, source] of found) {
    await resetDir(`${target}/${key}`); // an unfinished run of the same name: replace it whole
    await copyTree(`${source}/${key}`, `${target}/${key}`);
    const lab = key.split("/")[0]!;
    merged.set(lab, (merged.get(lab) ?? 0) + 1);
  }
  return merged;
}
