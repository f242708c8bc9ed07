/**
 * Programs that run other commands given in their arguments, or bash builtins that run code or
 * evaluate a variable's name (`printf -v 'a[$(cmd)]'` runs cmd, even from single quotes). A rule
 * for `sudo` or `timeout` would cover every command, and what they run is hidden from a rule for
 * that command: neither "don't ask again" nor an allow rule covers them, and a deny rule cannot
 * be ruled out for them (the call is asked).
 *
 * @module
 */

const RUNS_OTHER_COMMANDS = new Set([
  ".",
  "[",
  "alias",
  "ash",
  "bash",
  "builtin",
  "busybox",
  "chroot",
  "chrt",
  "command",
  "compgen",
  "complete",
  "coproc",
  "csh",
  "dash",
  "declare",
  "doas",
  "enable",
  "env",
  "eval",
  "exec",
  "export",
  "fakeroot",
  "fc",
  "fish",
  "flock",
  "getopts",
  "hash",
  "ionice",
  "ksh",
  "let",
  "local",
  "mapfile",
  "mksh",
  "nice",
  "nohup",
  "nsenter",
  "oksh",
  "parallel",
  "pdksh",
  "pkexec",
  "posh",
  "printf",
  "rbash",
  "read",
  "readarray",
  "readonly",
  "runuser",
  "script",
  "setpriv",
  "setsid",
  "sg",
  "sh",
  "source",
  "stdbuf",
  "strace",
  "su",
  "sudo",
  "systemd-run",
  "taskset",
  "tcsh",
  "test",
  "time",
  "timeout",
  "toybox",
  "trap",
  "typeset",
  "unbuffer",
  "unset",
  "unshare",
  "wait",
  "watch",
  "xargs",
  "yash",
  "zsh",
]);

/** `find` options that run a command for each file found. */
const FIND_RUNS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/**
 * Whether a command with these words may run a command its words do not name first: a wrapper
 * (`sudo rm`), a shell given code (`bash -c`), `find -exec`. Called with the words as bash
 * passes them; the program is compared by its last path component (`/usr/bin/env` is `env`).
 */
export function runsOtherCommands(words: readonly (string | null)[]): boolean {
  const program = words[0];
  if (program === null || program === undefined) return true;
  const name = program.slice(program.lastIndexOf("/") + 1);
  if (RUNS_OTHER_COMMANDS.has(name)) return true;
  return name === "find" && words.some((word) => word === null || FIND_RUNS.has(word));
}
