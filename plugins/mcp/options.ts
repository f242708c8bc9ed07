/**
 * The plugin's options and flags: factory options from `deno.json` over their defaults, the
 * `--mcp-eager` flag, and the hidden `--mcp-startup-timeout` / `--mcp-shutdown-wait` flags tests
 * use; flags win over the options for one run.
 *
 * @module
 */
import {
  optionValue,
  type PluginContext,
  type PluginOption,
  UsageError,
  withDefaults,
  z,
} from "../../core/mod.ts";
import { SANDBOX_OPTIONS } from "../../kit/mod.ts";
import { DEFAULT_SHUTDOWN_WAIT_MS } from "./shutdown.ts";

/** One shared deadline for starting every server. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;

const OPTIONS = z.strictObject({
  startupTimeoutMs: z.number().nonnegative(),
  shutdownWaitMs: z.number().nonnegative(),
  /**
   * Send every MCP tool definition in every request instead of listing names and loading on
   * demand (no `load_mcp_tool`). For comparisons such as `deno task bench`, not everyday use.
   */
  eager: z.boolean(),
}).partial();

/** Factory options (from `deno.json`); the hidden flags override them per run. */
export type McpPluginOptions = Required<z.infer<typeof OPTIONS>>;

const DEFAULTS: McpPluginOptions = {
  startupTimeoutMs: DEFAULT_STARTUP_TIMEOUT_MS,
  shutdownWaitMs: DEFAULT_SHUTDOWN_WAIT_MS,
  eager: false,
};

/**
 * The factory's options over the defaults. Options `deno.json` gives wrongly throw, naming
 * each option and what it must be (the plugin loader names the plugin).
 */
export function mcpOptions(given: unknown = {}): McpPluginOptions {
  const parsed = OPTIONS.safeParse(given ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      `${issue.path.join(".") || "options"}: ${issue.message}`
    );
    throw new Error(`invalid options: ${problems.join("; ")}`);
  }
  return withDefaults(DEFAULTS, parsed.data);
}

/** A hidden flag of milliseconds: undefined when not given. */
function milliseconds(flag: string): (value: unknown) => number | undefined {
  return (value) => {
    if (value === undefined) return undefined;
    const ms = Number(value);
    if (!Number.isFinite(ms) || ms < 0) {
      throw new UsageError(`${flag}: expected a number of milliseconds, got "${value}"`);
    }
    return ms;
  };
}

const STARTUP_TIMEOUT: PluginOption<number | undefined> = {
  flags: "--mcp-startup-timeout <ms>",
  description: "time for all MCP servers to start",
  hidden: true,
  parse: milliseconds("--mcp-startup-timeout"),
};

const SHUTDOWN_WAIT: PluginOption<number | undefined> = {
  flags: "--mcp-shutdown-wait <ms>",
  description: "wait per MCP shutdown step",
  hidden: true,
  parse: milliseconds("--mcp-shutdown-wait"),
};

const EAGER: PluginOption<boolean> = {
  flags: "--mcp-eager",
  description: "send every MCP tool definition up front instead of loading on demand",
  parse: (value) => value === true,
};

/** The flags the plugin adds to `hel`. */
export const MCP_OPTIONS: PluginOption[] = [
  ...SANDBOX_OPTIONS,
  STARTUP_TIMEOUT,
  SHUTDOWN_WAIT,
  EAGER,
];

/** True when every definition goes up front: the `--mcp-eager` flag or `eager`. */
export function eagerLoading(options: McpPluginOptions, context: PluginContext): boolean {
  return optionValue(context.flags, EAGER) || options.eager;
}

/** Timing settings of one run or command. */
export interface Timings {
  startupMs: number;
  shutdownWaitMs: number;
}

/** The timings from the flags, else the factory options (which hold the defaults). */
export function timings(options: McpPluginOptions, context: PluginContext): Timings {
  return {
    startupMs: optionValue(context.flags, STARTUP_TIMEOUT) ?? options.startupTimeoutMs,
    shutdownWaitMs: optionValue(context.flags, SHUTDOWN_WAIT) ?? options.shutdownWaitMs,
  };
}
