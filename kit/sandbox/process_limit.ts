/**
 * The process-count limit of the sandbox, so a fork bomb (`:(){ :|:& };:`) in a command cannot
 * take the machine down before the command's time limit ends it. Two mechanisms, because
 * neither holds everywhere:
 *
 * - `RLIMIT_NPROC`, set inside the sandbox by `prlimit` just before the program. bubblewrap
 *   gives an ordinary user a user namespace of its own, and the kernel counts the limit there
 *   per namespace: only the sandbox's own processes and threads count, not the user's others.
 *   (Set on bwrap from outside, it would count every process of the user.) The kernel never
 *   applies it to root.
 * - For root, a pids cgroup with `pids.max`, made once per run under the cgroup root
 *   (version 2, or version 1's `pids` hierarchy); the launching shell joins it before it starts
 *   bwrap, so everything inside is counted from the first fork. An ordinary user cannot
 *   make one there, and does not need to.
 *
 * Where neither can be set, the caller is told once and warns.
 *
 * @module
 */
import { errorMessage } from "../../core/errors.ts";
import { findSystemProgram } from "../process/group.ts";

/** Processes and threads one sandbox runs at once, by default. */
export const DEFAULT_MAX_PROCESSES = 1024;

/** How the limit is applied to one sandbox. */
export interface ProcessLimit {
  /** Put before the program inside the sandbox (`prlimit --nproc=N:N --`), or empty. */
  inside: string[];
  /** The `cgroup.procs` file the launching shell joins, when hel made a pids cgroup. */
  cgroupProcs?: string;
  /** Why the limit does not hold, for a warning; undefined when it does. */
  missing?: string;
}

/** Where the pids controller can be used: the cgroup version 2 root, or version 1's hierarchy. */
function pidsRoot(): string | undefined {
  try {
    const v2 = "/sys/fs/cgroup";
    if (Deno.readTextFileSync(`${v2}/cgroup.controllers`).split(/\s+/).includes("pids")) {
      const enabled = Deno.readTextFileSync(`${v2}/cgroup.subtree_control`).split(/\s+/);
      if (!enabled.includes("pids")) {
        Deno.writeTextFileSync(`${v2}/cgroup.subtree_control`, "+pids");
      }
      return v2;
    }
  } catch {
    // Not version 2, or its pids controller cannot be enabled here.
  }
  try {
    Deno.statSync("/sys/fs/cgroup/pids/cgroup.procs");
    return "/sys/fs/cgroup/pids";
  } catch {
    return undefined;
  }
}

/** Removes the cgroups of hel processes that are gone (a killed hel cannot remove its own). */
function removeStale(root: string): void {
  for (const entry of Deno.readDirSync(root)) {
    const pid = entry.name.match(/^hel-(\d+)-/)?.[1];
    if (!pid || !entry.isDirectory) continue;
    try {
      Deno.statSync(`/proc/${pid}`);
    } catch {
      try {
        Deno.removeSync(`${root}/${entry.name}`); // rmdir: refused while processes are in it
      } catch {
        // Still in use, or not ours to remove.
      }
    }
  }
}

/** Makes a pids cgroup limited to `max`; returns its `cgroup.procs`, or why it cannot. */
function pidsCgroup(max: number): { procs: string } | { problem: string } {
  const root = pidsRoot();
  if (!root) return { problem: "this system offers no pids cgroup" };
  try {
    removeStale(root);
    const dir = `${root}/hel-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
    Deno.mkdirSync(dir);
    Deno.writeTextFileSync(`${dir}/pids.max`, String(max));
    globalThis.addEventListener("unload", () => {
      try {
        Deno.removeSync(dir);
      } catch {
        // A process of the sandbox is still exiting; the next hel removes it.
      }
    });
    return { procs: `${dir}/cgroup.procs` };
  } catch (error) {
    return { problem: `hel could not make a pids cgroup in ${root} (${errorMessage(error)})` };
  }
}

/** How to limit one sandbox to `max` processes and threads, as the user `uid`. */
export function processLimit(
  max: number,
  path: string | undefined,
  project: string,
  uid: number | null = Deno.uid(),
): ProcessLimit {
  const prlimit = findSystemProgram("prlimit", path, project);
  const inside = prlimit ? [prlimit, `--nproc=${max}:${max}`, "--"] : [];
  if (uid !== 0) {
    if (prlimit) return { inside };
    return {
      inside,
      missing: "prlimit (util-linux) is not installed, so the sandbox cannot limit how many " +
        "processes a command starts; install util-linux",
    };
  }
  const cgroup = pidsCgroup(max);
  // The kernel ignores RLIMIT_NPROC for root: prlimit would only cost a program start.
  if ("procs" in cgroup) return { inside: [], cgroupProcs: cgroup.procs };
  return {
    inside,
    missing:
      `hel runs as root, where the kernel applies no per-user process limit, and ${cgroup.problem}; a command that starts processes without end (a fork bomb) is stopped only by its time ` +
      "limit. Run hel as an ordinary user",
  };
}

/** The shell that joins the cgroup: absolute, never one found on a PATH. */
const SYSTEM_SHELL = "/bin/sh";
/** `$0` is the cgroup's `cgroup.procs`, the rest the launch. */
const JOIN_AND_EXEC = 'echo $$ > "$0" && exec "$@"';

/** `launch` started from inside the cgroup whose `cgroup.procs` is `procs`. */
export function joinCgroup(
  launch: { program: string; args: string[] },
  procs: string,
): { program: string; args: string[] } {
  return {
    program: SYSTEM_SHELL,
    args: ["-c", JOIN_AND_EXEC, procs, launch.program, ...launch.args],
  };
}
