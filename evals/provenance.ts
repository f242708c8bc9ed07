/**
 * A run's provenance: everything that decides its outcome (endpoint, model, parameters, hel's
 * build, the task's and the lab's versions, the condition's settings) and, beside it, where it
 * ran (machine) and whether the model was the scripted stand-in. The deciding part hashes to a
 * reuse key; a recorded run is reused only when its key equals the key of the run about to be
 * made, so a changed endpoint, hel or task never passes off an old run as a new measurement.
 *
 * @module
 */
import { relative } from "node:path";
import { sha256Hex } from "../kit/mod.ts";
import type { Endpoint } from "./endpoint.ts";
import type { Condition, Lab, Task } from "./spec.ts";

/** What decides a run's outcome; its hash is the reuse key. */
export interface RunInputs {
  endpoint: { base_url: string; model: string };
  /** The lab's budget and model parameters, as hel receives them. */
  params: Record<string, unknown>;
  harness_build: string;
  /** SHA-256 of the task's files (instruction, checks, fixture, expected files). */
  task_version: string;
  /** SHA-256 of the parts of the lab that shape a run (revision, model, budget). */
  lab_version: string;
  condition: { name: string; settings: Record<string, unknown> };
}

/** Where the runs were made. */
export interface Machine {
  os: string;
  os_release: string;
  arch: string;
  cpus: number;
  deno: string;
}

/** The provenance block written to `run.json` and `record.json`. */
export interface Provenance extends RunInputs {
  /** SHA-256 of the inputs: equal keys, same run. */
  key: string;
  /** True when the endpoint answered as the scripted model (no measurement of a real model). */
  scripted: boolean;
  machine: Machine;
}

/** The machine the eval runs on. */
function machine(): Machine {
  return {
    os: Deno.build.os,
    os_release: Deno.osRelease(),
    arch: Deno.build.arch,
    cpus: navigator.hardwareConcurrency,
    deno: Deno.version.deno,
  };
}

/** JSON with object keys sorted at every level, so equal values hash alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (data: string | Uint8Array): Promise<string> =>
  sha256Hex(typeof data === "string" ? new TextEncoder().encode(data) : data);

/**
 * SHA-256 over the task folder's files (path and bytes, in path order). Server logs the checks
 * name and Python caches are left out: a server run by hand leaves them in the fixture, and
 * the runner deletes the logs from each run's copy anyway. Links are hashed by their target
 * text, never followed.
 */
export async function taskVersion(task: Task): Promise<string> {
  const skipped = new Set(
    task.checks.flatMap((check) =>
      check.type === "mcp_usage"
        ? [`${relative(task.dir, task.fixtureDir)}/${check.server_log}`]
        : []
    ),
  );
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name === "__pycache__") continue;
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (!skipped.has(relative(task.dir, path))) files.push(path);
    }
  };
  await walk(task.dir);
  const parts: string[] = [];
  for (const path of files.sort()) {
    const info = await Deno.lstat(path);
    const content = info.isSymlink
      ? `link:${await Deno.readLink(path)}`
      : await sha256(await Deno.readFile(path));
    parts.push(`${relative(task.dir, path)}\0${content}`);
  }
  return await sha256(parts.join("\n"));
}

/**
 * SHA-256 of what in a lab shapes each run. Repetitions, the rubric, titles and the other
 * conditions do not: more repetitions must not invalidate the runs already made.
 */
export function labVersion(lab: Lab): Promise<string> {
  return sha256(canonical({ revision: lab.revision, model: lab.model, budget: lab.budget }));
}

/** The inputs of a run of `task` under `condition` (see {@link RunInputs}). */
export async function runInputs(
  lab: Lab,
  task: Task,
  condition: Condition,
  endpoint: Endpoint,
  build: string,
): Promise<RunInputs> {
  return {
    endpoint: { base_url: endpoint.baseUrl, model: endpoint.model },
    params: { ...lab.budget, model_params: lab.model.params },
    harness_build: build,
    task_version: await taskVersion(task),
    lab_version: await labVersion(lab),
    condition: { name: condition.name, settings: condition.settings },
  };
}

/** The reuse key of some inputs. */
export function reuseKey(inputs: RunInputs): Promise<string> {
  return sha256(canonical(inputs));
}

/** The full provenance block of a run about to be made. */
export async function provenance(
  inputs: RunInputs,
  endpoint: Endpoint,
): Promise<Provenance> {
  return {
    key: await reuseKey(inputs),
    ...inputs,
    scripted: endpoint.scripted,
    machine: machine(),
  };
}

/**
 * What differs between a recorded run's inputs and the current ones, in words (empty when
 * nothing does). Used to say why a recorded run is made again.
 */
export function differences(recorded: Partial<RunInputs>, current: RunInputs): string[] {
  const found: string[] = [];
  const was = recorded.endpoint, now = current.endpoint;
  if (was?.base_url !== now.base_url) found.push(`endpoint ${was?.base_url} → ${now.base_url}`);
  if (was?.model !== now.model) found.push(`model ${was?.model} → ${now.model}`);
  if (canonical(recorded.params) !== canonical(current.params)) found.push("parameters");
  if (recorded.harness_build !== current.harness_build) {
    found.push(`hel ${recorded.harness_build} → ${current.harness_build}`);
  }
  if (recorded.task_version !== current.task_version) found.push("task files");
  if (recorded.lab_version !== current.lab_version) found.push("lab (model, budget or revision)");
  if (canonical(recorded.condition) !== canonical(current.condition)) {
    found.push("condition settings");
  }
  return found;
}
