/**
 * The plugin's command-line flags, each with the check that turns its value into a setting:
 * which tools are offered and the bash time limit, beside the kit's sandbox switches. Bad
 * values are usage errors that name the flag and the fix.
 *
 * @module
 */
import { MAX_TIMER_SECONDS, optionValue, type PluginOption, UsageError } from "../../core/mod.ts";
import { DEFAULT_BASH_TIMEOUT_SECONDS } from "./shell/bash.ts";
import { SANDBOX_OPTIONS } from "../../kit/mod.ts";

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

const TOOLS: PluginOption<ToolName[]> = {
  flags: "--tools <list>",
  description: "comma-separated built-in tools to offer",
  default: KNOWN_TOOLS.join(","),
  parse: parseToolList,
};

const BASH_TIMEOUT: PluginOption<number> = {
  flags: "--bash-timeout <seconds>",
  description: "wall-clock limit of one bash command",
  default: String(DEFAULT_BASH_TIMEOUT_SECONDS),
  parse(value) {
    const text = value ?? String(DEFAULT_BASH_TIMEOUT_SECONDS);
    const seconds = Number(text);
    if (!Number.isFinite(seconds) || seconds <= 0) {
      throw new UsageError(`--bash-timeout: expected a positive number of seconds, got "${text}"`);
    }
    if (seconds > MAX_TIMER_SECONDS) {
      throw new UsageError(
        `--bash-timeout: ${text} seconds is more than the longest limit hel can keep, ` +
          `${MAX_TIMER_SECONDS} seconds (about 24 days); give a smaller number`,
      );
    }
    return seconds;
  },
};

const READ_SCAN_BYTES: PluginOption<number | undefined> = {
  flags: "--read-scan-bytes <bytes>",
  description: "bytes one read_file call scans for start_line at most (for tests and tuning)",
  hidden: true,
  parse(value) {
    if (value === undefined) return undefined;
    const bytes = Number(value);
    if (!(Number.isSafeInteger(bytes) && bytes > 0)) {
      throw new UsageError(`--read-scan-bytes: expected a positive whole number, got "${value}"`);
    }
    return bytes;
  },
};

/** The flags the plugin adds to `hel`. */
export const TOOL_OPTIONS: PluginOption[] = [
  TOOLS,
  // The sandbox flags are the kit's, shared with every plugin that runs programs in it.
  ...SANDBOX_OPTIONS,
  BASH_TIMEOUT,
  READ_SCAN_BYTES,
];

/** The plugin's settings, read from its flags. */
export interface ToolSettings {
  tools: ToolName[];
  timeoutSeconds: number;
  /** `--read-scan-bytes`, when given. */
  readScanBytes?: number;
}

/** Reads the parsed flags (camelCase names) into settings (the sandbox's are the kit's). */
export function toolSettings(flags: Readonly<Record<string, unknown>>): ToolSettings {
  const readScanBytes = optionValue(flags, READ_SCAN_BYTES);
  return {
    ...(readScanBytes === undefined ? {} : { readScanBytes }),
    tools: optionValue(flags, TOOLS),
    timeoutSeconds: optionValue(flags, BASH_TIMEOUT),
  };
}
