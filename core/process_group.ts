/**
 * Child processes in a process group of their own, so hel can signal a command together with
 * everything it started (a shell's background jobs, the server `npx` launched). On Linux and
 * macOS the child is started through `setsid`, which makes it the leader of a new group whose
 * id equals its pid.
 *
 * @module
 */

/** The program and arguments that start `command args...` as a new process group's leader. */
export function inNewProcessGroup(command: string, args: readonly string[]): [string, string[]] {
  if (Deno.build.os === "windows") return [command, [...args]];
  return ["setsid", [command, ...args]];
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
