/**
 * The plugin's command-line flags and their checks: which tools are offered, the sandbox
 * switches (with `--allow-git-writes`) and the bash time limit. Bad values are usage errors
 * that name the flag and the fix.
 *
 * @module
 */
import { MAX_TIMER_SECONDS, type PluginOption, UsageError } from "../../core/mod.ts";
import { DEFAULT_BASH_TIMEOUT_SECONDS } from "./bash.ts";
import { parseSandboxEnv, parseSandboxReads } from "../../kit/mod.ts";

/** Every built-in tool, in the order `--tools` lists them by default. */
export const KNOWN_TOOLS = [
  "bash",
  "read_file",
  "write_file",
  "search_replace",
  "glob",
  "grep",
] as const;

/** A built-in tool's name. */
export type ToolName = typeof KNOWN_TOOLS[number];

/** The flags the plugin adds to `hel`. */
export const TOOL_OPTIONS: PluginOption[] = [
  {
    flags: "--tools <list>",
    description: "comma-separated built-in tools to offer",
    default: KNOWN_TOOLS.join(","),
  },
  {
    flags: "--sandbox <mode>",
    description: "run bash, glob and grep inside bubblewrap (off: unsandboxed, at your own risk)",
    choices: ["on", "off"],
    default: "on",
  },
  {
    flags: "--sandbox-network <mode>",
    description: "whether sandboxed commands may use the network",
    choices: ["on", "off"],
    default: "on",
  },
  {
    flags: "--sandbox-read <path>",
    description: "let sandboxed commands read this path too (absolute or ~/...; home folders " +
      "are hidden but for toolchains; repeatable)",
    repeatable: true,
  },
  {
    flags: "--sandbox-env <name>",
    description: "pass this variable to sandboxed commands although its name looks like a " +
      "credential (*KEY*, *SECRET*, *TOKEN*, *PASSWORD*, *PASSWD*, *PASSPHRASE*, *CREDENTIAL*, " +
      "any case; those are dropped, with --sandbox off too; repeatable)",
    repeatable: true,
  },
  {
    flags: "--allow-git-writes",
    description: "let sandboxed commands change .git (git add, git commit); a command could " +
      "then make git run its programs outside the sandbox",
  },
  {
    flags: "--bash-timeout <seconds>",
    description: "wall-clock limit of one bash command",
    default: String(DEFAULT_BASH_TIMEOUT_SECONDS),
  },
];

/** The plugin's settings after checking. */
export interface ToolSettings {
  tools: ToolName[];
  sandbox: boolean;
  network: boolean;
  /** `--allow-git-writes`: the sandbox leaves `.git` writable. */
  gitWrites: boolean;
  timeoutSeconds: number;
  /** `--sandbox-read`: existing absolute paths, `~` expanded. */
  extraReads: string[];
  /** `--sandbox-env`: variable names passed although they look like credentials. */
  passEnv: string[];
}

/** `--tools a,b`: names trimmed, duplicates kept once, unknown or empty lists refused. */
export function parseToolList(value: unknown): ToolName[] {
  const text = typeof value === "string" ? value : KNOWN_TOOLS.join(",");
  const known = KNOWN_TOOLS.join(", ");
  const names: ToolName[] = [];
  for (const raw of text.split(",")) {
    const name = raw.trim();
    if (name === "") continue;
    if (!(KNOWN_TOOLS as readonly string[]).includes(name)) {
      throw new UsageError(`--tools: unknown tool: ${name} (known: ${known})`);
    }
    if (!names.includes(name as ToolName)) names.push(name as ToolName);
  }
  if (names.length === 0) {
    throw new UsageError(
      `--tools: no tools given; list some of ${known}, or run with --without tools`,
    );
  }
  return names;
}

/** Reads the parsed flags (camelCase names) into settings; `home` expands `~` in paths. */
export function toolSettings(
  flags: Readonly<Record<string, unknown>>,
  home?: string,
): ToolSettings {
  const timeoutText = flags.bashTimeout ?? String(DEFAULT_BASH_TIMEOUT_SECONDS);
  const timeoutSeconds = Number(timeoutText);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    throw new UsageError(
      `--bash-timeout: expected a positive number of seconds, got "${timeoutText}"`,
    );
  }
  if (timeoutSeconds > MAX_TIMER_SECONDS) {
    throw new UsageError(
      `--bash-timeout: ${timeoutText} seconds is more than the longest limit hel can keep, ` +
        `${MAX_TIMER_SECONDS} seconds (about 24 days); give a smaller number`,
    );
  }
  return {
    tools: parseToolList(flags.tools),
    sandbox: flags.sandbox !== "off",
    network: flags.sandboxNetwork !== "off",
    gitWrites: flags.allowGitWrites === true,
    timeoutSeconds,
    extraReads: parseSandboxReads(flags.sandboxRead, home),
    passEnv: parseSandboxEnv(flags.sandboxEnv),
  };
}
