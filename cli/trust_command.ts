/**
 * `hel trust`: review and record trust of a project configuration now (the kinds the plugins
 * declare: hooks, MCP, ...),
 * pin reviewed bytes by hash without a terminal (`--sha256`), show the file as written
 * (`--show-file`), list records, revoke one.
 *
 * @module
 */
import { errorMessage } from "../core/errors.ts";
import type { PluginContext } from "../core/plugin.ts";
import { readProjectConfig } from "../kit/config/project_file.ts";
import { sha256Hex } from "../kit/trust/file_store.ts";
import { escapeControlCharacters, reviewTrust } from "../kit/trust/review.ts";
import {
  type TrustedConfig,
  trustedConfigFile,
  type TrustKind,
  type TrustSummary,
} from "../core/trust.ts";
import { UsageError } from "../core/usage_error.ts";
import { writeErr, writeOut } from "../kit/output.ts";

/** The flags of `hel trust`. */
export interface TrustCommandOptions {
  sha256?: string;
  showFile?: boolean;
  list?: boolean;
  revoke?: string;
}

/** Where the command writes: results to `out`, errors and notes to `err`. */
export interface TrustCommandOutput {
  out(text: string): void;
  err(text: string): void;
}

const SHA256_HEX = /^[0-9a-f]{64}$/i;

/** Words joined for a message: `hooks or mcp`, `a, b or c`. */
export function orList(words: readonly string[]): string {
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/** The kinds as words for messages. */
function either(configs: readonly TrustedConfig[]): string {
  return orList(configs.map((config) => config.kind));
}

function trustedConfig(
  configs: readonly TrustedConfig[],
  value: string,
  flag: string,
): TrustedConfig {
  const config = configs.find((config) => config.kind === value);
  if (config) return config;
  throw new UsageError(
    configs.length === 0
      ? `${flag}: unknown kind "${value}"; no plugin of this build reads a trusted configuration`
      : `${flag}: unknown kind "${value}"; use ${either(configs)}`,
  );
}

/** What the plugins that read a kind of configuration file say about it. */
export interface ConfigReaders {
  /** The kinds the plugins declare, in plugin order. */
  configs: readonly TrustedConfig[];
  /** What is wrong with the file (place and fix), or undefined when it is valid. */
  check(kind: TrustKind, bytes: Uint8Array, path: string): string | undefined;
  /** What the valid file runs, for the review; undefined when no plugin reads it. */
  summarize(kind: TrustKind, bytes: Uint8Array, path: string): TrustSummary | undefined;
}

const NO_READERS: ConfigReaders = {
  configs: [],
  check: () => undefined,
  summarize: () => undefined,
};

/**
 * Runs `hel trust ...` and returns the exit code; usage mistakes throw {@link UsageError}.
 * `readers` validate the file before it is reviewed or pinned (an invalid one is never
 * trusted) and say what it runs.
 */
export async function runTrustCommand(
  kindArg: string | undefined,
  options: TrustCommandOptions,
  context: PluginContext,
  output: TrustCommandOutput = { out: writeOut, err: writeErr },
  readers: ConfigReaders = NO_READERS,
): Promise<number> {
  const { configs } = readers;
  const modes = [kindArg !== undefined, options.list === true, options.revoke !== undefined];
  if (modes.filter(Boolean).length !== 1) {
    throw new UsageError(
      `hel trust needs exactly one of: a kind (${either(configs)}), --list, or --revoke KIND`,
    );
  }
  // Examples name a kind this build has, e.g. `hel trust hooks --sha256 HEX`.
  const example = configs[0]?.kind ?? "KIND";
  if (options.sha256 !== undefined && kindArg === undefined) {
    throw new UsageError(`--sha256 goes with a kind: hel trust ${example} --sha256 HEX`);
  }
  if (options.showFile && (kindArg === undefined || options.sha256 !== undefined)) {
    throw new UsageError(`--show-file goes with a kind alone: hel trust ${example} --show-file`);
  }
  if (options.list) return await list(context, output);
  if (options.revoke !== undefined) {
    const { kind } = trustedConfig(configs, options.revoke, "--revoke");
    const removed = await context.trust.revoke(kind, context.project);
    output.err(
      removed
        ? `hel: revoked ${kind} trust for ${context.project}\n`
        : `hel: no ${kind} trust record for ${context.project}; nothing to revoke\n`,
    );
    return 0;
  }
  const config = trustedConfig(configs, kindArg!, "hel trust");
  const { kind } = config;
  if (options.sha256 !== undefined && !SHA256_HEX.test(options.sha256)) {
    throw new UsageError(
      `--sha256 ${options.sha256}: expected 64 hexadecimal characters (sha256sum's output)`,
    );
  }
  const file = await readProjectConfig(context.project, trustedConfigFile(config));
  if (file.kind === "absent") {
    output.err(`hel: ${file.path} does not exist; there is nothing to trust\n`);
    return 1;
  }
  if (file.kind === "unusable") {
    output.err(`hel: ${file.message}\n`);
    return 1;
  }
  if (options.showFile) {
    // The file as written, for a pager: a cloned repository's bytes must not drive the terminal.
    const text = escapeControlCharacters(new TextDecoder().decode(file.bytes));
    output.out(text.endsWith("\n") || text === "" ? text : `${text}\n`);
    return 0;
  }
  // hel would skip an invalid file at start, so trusting it would approve nothing that runs.
  const problem = readers.check(kind, file.bytes, file.path);
  if (problem !== undefined) {
    output.err(
      `hel: ${escapeControlCharacters(problem)}\nhel: nothing was trusted; fix ${file.path} ` +
        `and run hel trust ${kind} again\n`,
    );
    return 1;
  }
  if (options.sha256 !== undefined) return await pin(kind, file.path, file.bytes, options.sha256);

  if (await context.trust.isTrusted(kind, context.project, file.bytes)) {
    output.err(`hel: ${file.path} is already trusted as it is now; nothing to do\n`);
    return 0;
  }
  // A setup error, as the README's exit codes have it: the command cannot be used this way.
  if (!context.interactive) {
    output.err(
      `hel: reviewing ${file.path} needs a terminal. Read the file yourself, then pin exactly ` +
        `those bytes with: hel trust ${kind} --sha256 <its sha256sum>\n`,
    );
    return 2;
  }
  const summary = readers.summarize(kind, file.bytes, file.path);
  if (summary === undefined) {
    output.err(
      `hel: no plugin of this build reads ${file.path}, so hel cannot show what it runs; ` +
        "nothing was trusted\n",
    );
    return 1;
  }
  const outcome = await reviewTrust(context, config, file.path, file.bytes, summary);
  if (outcome === "refused") {
    output.err(`hel: ${file.path} was not trusted\n`);
    return 1;
  }
  if (outcome === "no-terminal") {
    output.err(`hel: no answer was read; ${file.path} was not trusted\n`);
    return 1;
  }
  // reviewTrust keeps an approval for the run even when saving failed; here saving is the point.
  if (!await context.trust.isTrusted(kind, context.project, file.bytes)) {
    output.err(`hel: the trust record for ${file.path} could not be saved\n`);
    return 1;
  }
  output.err(`hel: trusted ${file.path} for ${context.project}\n`);
  return 0;

  async function pin(kind: TrustKind, path: string, bytes: Uint8Array, wanted: string) {
    const actual = await sha256Hex(bytes);
    if (actual !== wanted.toLowerCase()) {
      output.err(
        `hel: ${path} has SHA-256 ${actual}, not ${wanted.toLowerCase()}; nothing was ` +
          "recorded. The file is not the one that was reviewed: review it again before pinning.\n",
      );
      return 1;
    }
    try {
      await context.trust.record(kind, context.project, bytes);
    } catch (error) {
      output.err(`hel: could not save the trust record: ${errorMessage(error)}\n`);
      return 1;
    }
    output.err(`hel: trusted ${path} (sha256 ${actual}) for ${context.project}\n`);
    return 0;
  }
}

async function list(context: PluginContext, output: TrustCommandOutput): Promise<number> {
  const records = await context.trust.list();
  if (records.length === 0) {
    output.out(`No trust records in ${context.helHome}/trust.json.\n`);
    return 0;
  }
  const sorted = [...records].sort((a, b) =>
    a.project.localeCompare(b.project) || a.kind.localeCompare(b.kind)
  );
  for (const record of sorted) {
    output.out(
      // The store is a file anyone with the user's rights can edit: keep it off the terminal.
      escapeControlCharacters(
        `${record.kind.padEnd(5)}  ${record.project}  sha256 ${record.sha256}  ` +
          `trusted ${record.trustedAt}`,
      ) + "\n",
    );
  }
  return 0;
}
