/**
 * The parts of a sandbox's fresh `/proc` that must be read-only. Run as root, a command is
 * still uid 0 without capabilities, and uid 0 owns the kernel's settings: it could set
 * `kernel.core_pattern` to a program the kernel then runs as root outside the sandbox, or
 * reboot the machine through `/proc/sysrq-trigger`. bubblewrap covers these only when
 * access() calls them writable, which for `/proc/sys` it never does.
 *
 * @module
 */

const SYSRQ_TRIGGER = "/proc/sysrq-trigger";
let sysrqTrigger: boolean | undefined;

/** Whether this kernel has /proc/sysrq-trigger (looked at once). */
function hasSysrqTrigger(): boolean {
  try {
    sysrqTrigger ??= Deno.statSync(SYSRQ_TRIGGER).isFile;
  } catch {
    sysrqTrigger = false;
  }
  return sysrqTrigger;
}

/** bubblewrap arguments binding them read-only; they go right after `--proc /proc`. */
export function procCovers(): string[] {
  return [
    "--ro-bind",
    "/proc/sys",
    "/proc/sys",
    ...(hasSysrqTrigger() ? ["--ro-bind", SYSRQ_TRIGGER, SYSRQ_TRIGGER] : []),
  ];
}
