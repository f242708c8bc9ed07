/**
 * What "yes, and don't ask again" may cover for a `bash` command: its leading words
 * (`npm test`, `git status`, `ls`), and only for one plain command (command_line.ts) — one
 * program with plain arguments. Anything that could make the command run more than its leading
 * words say (a second command after `;`, `&&`, `||`, `|`, `&` or a newline; command or process
 * substitution; redirections to files; a variable assignment in front; a wrapper such as `env`
 * or `sudo`) gets no prefix, so the person is asked about it every time. The same words, saved
 * as the rule `bash(PREFIX:*)`, cover the same commands in later runs.
 *
 * @module
 */
import { readCommandLine } from "./command_line.ts";
import { runsOtherCommands } from "./wrappers.ts";

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

/** A word that is exactly what bash runs: no quoting, expansion, glob or assignment. */
const PLAIN_WORD = /^[A-Za-z0-9_./@%+,:-]+$/;

/**
 * The leading words of `command` that "don't ask again" covers: the program, its subcommand for
 * programs that have them, and the script's name for a script runner; never an option.
 * Undefined unless the line is one plain command (command_line.ts), so never for a wrapper of
 * other commands.
 */
export async function commandPrefix(command: string): Promise<string | undefined> {
  const line = await readCommandLine(command);
  const only = line.parts[0];
  if (!line.plain || line.parts.length !== 1 || !only) return undefined;
  return prefixOf(only.words);
}

/** The prefix of one plain command's words (see {@link commandPrefix}). */
function prefixOf(words: readonly (string | null)[]): string | undefined {
  const program = words[0];
  if (typeof program !== "string" || !PLAIN_WORD.test(program)) return undefined;
  if (program.startsWith("-") || runsOtherCommands(words)) return undefined;
  const name = program.slice(program.lastIndexOf("/") + 1);
  if (!SUBCOMMAND_PROGRAMS.has(name)) return program;
  const prefix = [program];
  for (const word of words.slice(1)) {
    if (word?.startsWith("-")) break;
    // An expanded subcommand is known only when it runs; better to ask each time.
    if (word === null || !PLAIN_WORD.test(word)) return undefined;
    prefix.push(word);
    if (prefix.length === 3 || !SCRIPT_RUNNERS.has(`${name} ${word}`)) break;
  }
  return prefix.join(" ");
}
