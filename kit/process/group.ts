/**
 * Child processes in a process group of their own, so hel can signal a command together with
 * everything it started (a shell's background jobs, the server `npx` launched). On Linux and
 * macOS the child is started through `setsid`, which makes it the leader of a new group whose
 * id equals its pid.
 *
 * @module
 */

/**
 * Absolute path of the executable `name` in a PATH folder that is absolute and lies outside
 * `project` (default: the working directory), or undefined. Programs hel wraps around others
 * (`setsid`, the sandbox's `bwrap`) run outside the sandbox, so they must never come from a
 * folder a sandboxed command can write to (a PATH entry such as `bin` or `./node_modules/.bin`).
 */
export function findSystemProgram(
  name: string,
  path: string = Deno.env.get("PATH") ?? "",
  project: string = Deno.cwd(),
): string | undefined {
  let root: string;
  try {
    root = Deno.realPathSync(project);
  } catch {
    root = project;
  }
  for (const dir of path.split(":")) {
    if (!dir.startsWith("/")) continue;
    try {
      const real = Deno.realPathSync(dir);
      if (real === root || real.startsWith(`${root === "/" ? "" : root}/`)) continue;
      const info = Deno.statSync(`${real}/${name}`);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return `${real}/${name}`;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

let setsid: string | undefined;

/** The program and arguments that start `command args...` as a new process group's leader. */
export function inNewProcessGroup(command: string, args: readonly string[]): [string, string[]] {
  if (Deno.build.os === "windows") return [command, [...args]];
  // A bare "setsid" would be looked up on the child's PATH, which may reach into the project.
  // Found once: hel changes neither its PATH nor its working directory, and every tool call,
  // hook and server start would otherwise repeat the search.
  setsid ??= findSystemProgram("setsid") ?? "/usr/bin/setsid";
  return [setsid, [command, ...args]];
}

/**
 * Sends `signal` to the whole group led by `pid`. Returns false when the group is already
 * gone (or signalling is not possible); never throws.
 */
export function signalProcessGroup(pid: number, signal: Deno.Signal): boolean {
  try {
    Deno.kill(Deno.build.os === "windows" ? pid : -pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while any process of the group led by `pid` is alive. */
export function processGroupAlive(pid: number): boolean {
  return signalProcessGroup(pid, "SIGCONT");
}
