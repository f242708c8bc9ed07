/**
 * The parts of a sandbox's fresh `/proc` that must be read-only. Run as root, a command is
 * still uid 0 without capabilities, and uid 0 owns the kernel's settings: it could set
 * `kernel.core_pattern` to a program the kernel then runs as root outside the sandbox, or
 * reboot the machine through `/proc/sysrq-trigger`. bubblewrap covers these only when
 * access() calls them writable, which for `/proc/sys` it never does.
 *
 * @module
 */

const COVERED = ["/proc/sys", "/proc/sysrq-trigger"];
let present: string[] | undefined;

/** bubblewrap arguments binding them read-only; they go right after `--proc /proc`. */
export function procCovers(): string[] {
  // Looked at once: whether the kernel has them does not change while hel runs.
  present ??= COVERED.filter((path) => {
    try {
      Deno.statSync(path);
      return true;
    } catch {
      return false;
    }
  });
  return present.flatMap((path) => ["--ro-bind", path, path]);
}
