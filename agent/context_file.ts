/**
 * Builds the {@link PluginContext} of a CLI invocation: the project, `$HEL_HOME`, the trust
 * store, the terminal and the log.
 *
 * @module
 */
import { isAbsolute } from "node:path";
import type { Logger, PluginContext } from "../core/plugin.ts";
import { environmentWithoutSecrets } from "../kit/mod.ts";
import { createTrustFileStore } from "../kit/trust/file_store.ts";
import { escapeControlCharacters } from "../kit/trust/review.ts";
import { UsageError } from "../core/usage_error.ts";
import { writeErr } from "../kit/output.ts";
import { askOnTerminal, type LineReader } from "../cli/terminal.ts";
import { askFormByLines } from "../cli/form_lines.ts";
import { surroundings } from "../kit/surroundings.ts";

/**
 * Where hel keeps per-user state: `$HEL_HOME`, else `~/.hel`. With neither set there is no
 * safe default: a relative one would put the trust store in the project's own `.hel`, where a
 * cloned repository could ship a record approving its hooks and servers.
 */
export function helHome(): string {
  const explicit = surroundings().env("HEL_HOME");
  if (explicit && !isAbsolute(explicit)) {
    // Relative, it would name a folder in each project (`~` is not expanded in env files and
    // CI yaml), where a cloned repository could ship records approving its own hooks.
    throw new UsageError(
      `HEL_HOME is "${explicit}", a relative path, so hel would look for its trust records ` +
        "inside each project, where a cloned repository could ship its own; set HEL_HOME to " +
        "an absolute path (e.g. HEL_HOME=$HOME/.hel)",
    );
  }
  if (explicit) return explicit;
  const home = surroundings().env("HOME") || surroundings().env("USERPROFILE");
  if (!home) {
    throw new UsageError(
      "neither HEL_HOME nor HOME is set, so hel has nowhere to keep its trust records; set " +
        "HEL_HOME to a folder of yours outside the project (e.g. HEL_HOME=/path/to/hel-home)",
    );
  }
  return `${home}/.hel`;
}

/** The project hel acts on: the working directory with symlinks resolved. */
export function projectDir(): Promise<string> {
  return Deno.realPath(surroundings().cwd());
}

/**
 * The logger that prints to stderr. Warnings quote project files (a field name in a cloned
 * repository's hooks.json), so their control characters are escaped: no file drives the terminal.
 */
export const stderrLogger: Logger = {
  warn: (text) => writeErr(`hel: warning: ${escapeControlCharacters(text)}\n`),
  info: (text) => writeErr(`${text}\n`),
};

/** The context for this process; `flags` are the parsed command-line values. */
export async function createCliContext(
  flags: Record<string, unknown>,
  reader: LineReader,
  log: Logger = stderrLogger,
): Promise<PluginContext> {
  const home = helHome();
  const interactive = surroundings().stdin.isTerminal();
  const ask = (question: string, signal?: AbortSignal) => askOnTerminal(reader, question, signal);
  return {
    project: await projectDir(),
    helHome: home,
    flags,
    log,
    interactive,
    ask,
    // Without a terminal there is no one to answer: the asker declines.
    askForm: (question, signal) =>
      interactive ? askFormByLines(question, ask, writeErr, signal) : Promise.resolve(undefined),
    trust: createTrustFileStore(home, (message) => log.warn(message)),
    childEnv: () => {
      const env = environmentWithoutSecrets();
      // The variable the apiKeyEnv setting names holds a model API key too.
      if (typeof flags.apiKeyEnv === "string") delete env[flags.apiKeyEnv];
      return env;
    },
  };
}
