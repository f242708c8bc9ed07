/**
 * The sandbox's command-line flags (`--sandbox`, `--sandbox-network`, `--sandbox-read`,
 * `--sandbox-env`, `--allow-git-writes`, `--sandbox-processes`) and the {@link SandboxSettings} built from them. Every plugin that runs
 * programs in the sandbox (tools, hooks, MCP) declares {@link SANDBOX_OPTIONS} — the very same
 * objects, so the command line adds each flag once whichever of them are loaded — and asks
 * {@link sandboxSettingsFor} for the settings, which are built and warned about once per run.
 *
 * @module
 */
import { resolve } from "node:path";
import { type Logger, type PluginContext, type PluginOption, UsageError } from "../../core/mod.ts";
import { isWithin, touchesProtected } from "../paths.ts";
import { parseSandboxEnv } from "./environment.ts";
import { parseSandboxReads } from "./home.ts";
import { DEFAULT_MAX_PROCESSES } from "./process_limit.ts";
import { rootWarning } from "./root_warning.ts";
import type { SandboxSettings } from "./sandbox.ts";

/** The sandbox flags; plugins list these objects in their `options` (shared, not copied). */
export const SANDBOX_OPTIONS: readonly PluginOption[] = [
  {
    flags: "--sandbox <mode>",
    description: "run commands, hooks and MCP servers inside bubblewrap (off: unsandboxed, at " +
      "your own risk)",
    choices: ["on", "off"],
    default: "on",
  },
  {
    flags: "--sandbox-network <mode>",
    description: "whether sandboxed programs may use the network",
    choices: ["on", "off"],
    default: "on",
  },
  {
    flags: "--sandbox-read <path>",
    description: "let sandboxed programs read this path too (absolute or ~/...; home folders " +
      "are hidden but for toolchains; repeatable)",
    repeatable: true,
  },
  {
    flags: "--sandbox-env <name>",
    description: "pass this variable to sandboxed programs although its name looks like a " +
      "credential (*KEY*, *SECRET*, *TOKEN*, *PASSWORD*, *PASSWD*, *PASSPHRASE*, *CREDENTIAL*, " +
      "AUTH or PWD as a word, any case; those are dropped, with --sandbox off too; repeatable)",
    repeatable: true,
  },
  {
    flags: "--allow-git-writes",
    description: "let sandboxed programs change .git (git add, git commit); one could then " +
      "make git run its programs outside the sandbox",
  },
  {
    flags: "--sandbox-processes <n>",
    description: "most processes and threads a sandbox runs at once (a fork bomb stops there)",
    default: String(DEFAULT_MAX_PROCESSES),
  },
];

/** The sandbox flags after checking. */
export interface SandboxFlags {
  sandbox: boolean;
  network: boolean;
  /** `--allow-git-writes`: the sandbox leaves `.git` writable. */
  gitWrites: boolean;
  /** `--sandbox-read`: existing absolute paths, `~` expanded. */
  extraReads: string[];
  /** `--sandbox-env`: variable names passed although they look like credentials. */
  passEnv: string[];
  /** `--sandbox-processes`. */
  maxProcesses: number;
}

/** Reads the parsed flags (camelCase names); `home` expands `~` in `--sandbox-read` paths. */
export function sandboxFlags(
  flags: Readonly<Record<string, unknown>>,
  home?: string,
): SandboxFlags {
  return {
    sandbox: flags.sandbox !== "off",
    network: flags.sandboxNetwork !== "off",
    gitWrites: flags.allowGitWrites === true,
    extraReads: parseSandboxReads(flags.sandboxRead, home),
    passEnv: parseSandboxEnv(flags.sandboxEnv),
    maxProcesses: parseMaxProcesses(flags.sandboxProcesses),
  };
}

/** `--sandbox-processes`: a whole number of at least 1 (default {@link DEFAULT_MAX_PROCESSES}). */
function parseMaxProcesses(text: unknown): number {
  if (text === undefined) return DEFAULT_MAX_PROCESSES;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new UsageError(`--sandbox-processes: expected a positive whole number, got "${text}"`);
  }
  return value;
}

/** Built once per run: every plugin of a run shares the same parsed flags object. */
const built = new WeakMap<object, Promise<SandboxSettings>>();

/**
 * The run's sandbox settings. The first call checks the flags (a bad one throws a usage
 * error) and warns once about what weakens the sandbox; later calls return the same settings.
 */
export function sandboxSettingsFor(
  host: PluginContext & { log?: Pick<Logger, "warn"> },
): Promise<SandboxSettings> {
  let settings = built.get(host.flags);
  if (!settings) {
    settings = build(host);
    built.set(host.flags, settings);
  }
  return settings;
}

async function build(
  host: PluginContext & { log?: Pick<Logger, "warn"> },
): Promise<SandboxSettings> {
  // A subcommand such as `hel mcp list` has no log: it builds the settings without warnings.
  const warn = (text: string) => host.log?.warn(text);
  const env = host.childEnv();
  const flags = sandboxFlags(host.flags, env.HOME);
  const project = host.project;
  const helHome = await helHomeInside(project, host.helHome);
  const asRoot = rootWarning(flags.sandbox);
  if (asRoot) warn(asRoot);
  for (const name of flags.passEnv.filter((name) => !(name in env))) {
    warn(
      `--sandbox-env ${name}: hel's environment has no ${name}, so sandboxed programs get ` +
        "none; check the name",
    );
  }
  if (!flags.sandbox) {
    warn(
      "--sandbox off: commands (bash, glob, grep), hooks and MCP servers run without a " +
        "sandbox and can read and change anything your user account can",
    );
  } else if (flags.gitWrites) {
    warn(
      "--allow-git-writes: sandboxed commands can change .git; a command could set a " +
        "program (core.fsmonitor, a hook) that git then runs outside the sandbox, the next " +
        "time you or your shell prompt runs git here",
    );
  }
  return {
    enabled: flags.sandbox,
    network: flags.network,
    project,
    helDir: `${project}/.hel`,
    ...(helHome ? { helHome } : {}),
    helHomeAnywhere: host.helHome,
    extraReads: flags.extraReads,
    passEnv: flags.passEnv,
    gitWritable: flags.gitWrites || !flags.sandbox,
    env,
    maxProcesses: flags.maxProcesses,
    warn,
  };
}

/**
 * `$HEL_HOME` as a canonical path when it lies strictly inside the project, else undefined
 * (elsewhere the sandbox already keeps it read-only and the file tools out). It is created
 * first, so the sandbox can cover it before a command could plant a trust store there.
 */
export async function helHomeInside(
  project: string,
  helHome: string,
): Promise<string | undefined> {
  // Under `.hel` (hel run in the home folder) it is hidden and refused already; binding it
  // would uncover `.hel` inside the sandbox.
  const inside = (path: string) =>
    isWithin(project, path) && path !== project && !touchesProtected(project, path);
  const path = resolve(project, helHome);
  if (!inside(path)) return undefined;
  try {
    await Deno.mkdir(path, { recursive: true, mode: 0o700 });
    const real = await Deno.realPath(path);
    return inside(real) ? real : undefined;
  } catch {
    return path;
  }
}
