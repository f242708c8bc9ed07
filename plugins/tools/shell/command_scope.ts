/**
 * What "yes, and don't ask again this session" may cover for a `bash` command: its leading
 * words (`npm test`, `git status`, `ls`), and only for a simple command — one program with
 * plain arguments. Anything that could make the command run more than its leading words say
 * (a second command after `;`, `&&`, `||`, `|`, `&` or a newline; command or process
 * substitution; expansions; redirections; a variable assignment in front; a wrapper such as
 * `env` or `sudo`) gets no prefix, so the person is asked about it every time.
 *
 * @module
 */

/**
 * Programs whose second word is a subcommand that changes what they do (`git status` and
 * `git push` are different requests); any other program's prefix is its name alone.
 */
const SUBCOMMAND_PROGRAMS = new Set([
  "apt",
  "brew",
  "bun",
  "bunx",
  "cargo",
  "composer",
  "deno",
  "docker",
  "dotnet",
  "gh",
  "git",
  "go",
  "gradle",
  "just",
  "kubectl",
  "make",
  "mvn",
  "npm",
  "npx",
  "pip",
  "pip3",
  "pnpm",
  "podman",
  "poetry",
  "rustup",
  "uv",
  "uvx",
  "yarn",
]);

/** Subcommands that run a named script: the script's name is part of the prefix too. */
const SCRIPT_RUNNERS = new Set([
  "bun run",
  "deno task",
  "npm exec",
  "npm run",
  "npm run-script",
  "pnpm exec",
  "pnpm run",
  "poetry run",
  "uv run",
  "yarn run",
]);

/**
 * Programs that run another command given as their arguments (a rule for `sudo` or `timeout`
 * would cover every command), and bash builtins that run code or evaluate a variable's name
 * (`printf -v 'a[$(cmd)]'` runs cmd, even from single quotes): no rule is offered for them.
 */
const NO_RULE_PROGRAMS = new Set([
  ".",
  "bash",
  "builtin",
  "busybox",
  "chroot",
  "command",
  "compgen",
  "complete",
  "coproc",
  "dash",
  "declare",
  "doas",
  "enable",
  "env",
  "eval",
  "exec",
  "export",
  "fc",
  "fish",
  "flock",
  "getopts",
  "ksh",
  "let",
  "local",
  "mapfile",
  "nice",
  "nohup",
  "nsenter",
  "parallel",
  "printf",
  "read",
  "readarray",
  "readonly",
  "script",
  "setsid",
  "sh",
  "source",
  "stdbuf",
  "strace",
  "su",
  "sudo",
  "test",
  "time",
  "timeout",
  "trap",
  "typeset",
  "unset",
  "unshare",
  "wait",
  "watch",
  "xargs",
  "zsh",
]);

/** A word that is exactly what bash runs: no quoting, expansion, glob or assignment. */
const PLAIN_WORD = /^[A-Za-z0-9_./@%+,:-]+$/;

/** Characters that end a word or start another command when they are not quoted. */
const UNQUOTED_OPERATORS = new Set([";", "&", "|", "<", ">", "(", ")", "`", "$", "\n"]);

/**
 * The words of `command` when it is one simple command (see the module comment), with their
 * quotes and escapes kept as written; undefined otherwise.
 */
export function simpleCommandWords(command: string): string[] | undefined {
  // A control character could hide what runs, and a newline separates commands.
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/.test(command)) return undefined;
  const words: string[] = [];
  let word = "";
  let quote: "'" | '"' | undefined;
  for (let at = 0; at < command.length; at++) {
    const char = command[at]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      word += char;
    } else if (quote === '"') {
      // Inside double quotes, `$` and backticks still expand and substitute.
      if (char === "$" || char === "`") return undefined;
      if (char === '"') quote = undefined;
      word += char;
      if (char === "\\" && at + 1 < command.length) word += command[++at];
    } else if (char === " " || char === "\t") {
      if (word !== "") words.push(word);
      word = "";
    } else if (char === "#" && word === "") {
      // A comment runs nothing.
      break;
    } else if (UNQUOTED_OPERATORS.has(char)) {
      return undefined;
    } else {
      if (char === "'" || char === '"') quote = char;
      if (char === "\\") {
        const next = command[++at];
        if (next === undefined) return undefined;
        word += char + next;
        continue;
      }
      word += char;
    }
  }
  if (quote !== undefined) return undefined;
  if (word !== "") words.push(word);
  return words.length > 0 ? words : undefined;
}

/**
 * The leading words of a simple `command` that "don't ask again" covers: the program, its
 * subcommand for programs that have them, and the script's name for a script runner; never an
 * option. Undefined for anything but a simple command, and for wrappers of other commands.
 */
export function commandPrefix(command: string): string | undefined {
  const words = simpleCommandWords(command);
  const program = words?.[0];
  if (!words || program === undefined || !PLAIN_WORD.test(program)) return undefined;
  // Not plain either: `NAME=value cmd`, which runs cmd with a changed PATH or LD_PRELOAD.
  if (program.startsWith("-")) return undefined;
  const name = program.slice(program.lastIndexOf("/") + 1);
  if (NO_RULE_PROGRAMS.has(name)) return undefined;
  if (!SUBCOMMAND_PROGRAMS.has(name)) return program;
  const prefix = [program];
  for (const word of words.slice(1)) {
    if (word.startsWith("-")) break;
    // A quoted or expanded subcommand is not what it looks like; better to ask each time.
    if (!PLAIN_WORD.test(word)) return undefined;
    prefix.push(word);
    if (prefix.length === 3 || !SCRIPT_RUNNERS.has(`${name} ${word}`)) break;
  }
  return prefix.join(" ");
}
