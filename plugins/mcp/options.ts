/**
 * The plugin's options and flags: factory options from `deno.json` over their defaults (in
 * milliseconds, as their names say), the `--mcp-eager`, `--mcp-catalogue`,
 * `--mcp-catalogue-budget` and `--mcp-startup-timeout` flags, and the
 * hidden `--mcp-shutdown-wait` that tests use; flags (in seconds) win over the options for one run.
 *
 * @module
 */
import {
  MAX_TIMER_SECONDS,
  optionValue,
  type PluginContext,
  type PluginOption,
  UsageError,
  withDefaults,
  z,
} from "../../core/mod.ts";
import { SANDBOX_OPTIONS } from "../../kit/mod.ts";
import { DEFAULT_SHUTDOWN_WAIT_MS } from "./shutdown.ts";
import {
  CATALOGUE_BUDGET_FLAG,
  CATALOGUE_FLAG,
  CATALOGUE_MODES,
  type CatalogueMode,
  DEFAULT_CATALOGUE_BUDGET,
} from "./catalogue_mode.ts";

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
  /** How the model finds MCP tools (catalogue_mode.ts): `auto`, `list` or `search`. */
  catalogue: z.enum(CATALOGUE_MODES),
  /** Estimated tokens the listing may take before `auto` searches instead. */
  catalogueBudget: z.number().int().nonnegative(),
}).partial();

/** Factory options (from `deno.json`); the hidden flags override them per run. */
export type McpPluginOptions = Required<z.infer<typeof OPTIONS>>;

const DEFAULTS: McpPluginOptions = {
  startupTimeoutMs: DEFAULT_STARTUP_TIMEOUT_MS,
  shutdownWaitMs: DEFAULT_SHUTDOWN_WAIT_MS,
  eager: false,
  catalogue: "auto",
  catalogueBudget: DEFAULT_CATALOGUE_BUDGET,
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

/**
 * A flag of seconds, like every other timeout of hel (fractions allowed, for tests' short
 * waits), as milliseconds; undefined when not given.
 */
function seconds(
  flag: string,
  { zero }: { zero: boolean },
): (value: unknown) => number | undefined {
  return (value) => {
    if (value === undefined) return undefined;
    const given = String(value).trim();
    const number = given === "" ? NaN : Number(given);
    if (!Number.isFinite(number) || number < 0 || (!zero && number === 0)) {
      throw new UsageError(
        `${flag}: expected a ${zero ? "" : "positive "}number of seconds, e.g. 60, got "${value}"`,
      );
    }
    if (number > MAX_TIMER_SECONDS) {
      throw new UsageError(`${flag}: at most ${MAX_TIMER_SECONDS} seconds, got "${value}"`);
    }
    return Math.round(number * 1000);
  };
}

const STARTUP_TIMEOUT: PluginOption<number | undefined> = {
  flags: "--mcp-startup-timeout <s>",
  description: `seconds all MCP servers have to start (default ${
    DEFAULT_STARTUP_TIMEOUT_MS / 1000
  })`,
  parse: seconds("--mcp-startup-timeout", { zero: false }),
};

const SHUTDOWN_WAIT: PluginOption<number | undefined> = {
  flags: "--mcp-shutdown-wait <seconds>",
  description: "seconds to wait per MCP shutdown step",
  hidden: true,
  parse: seconds("--mcp-shutdown-wait", { zero: true }),
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
  CATALOGUE_FLAG,
  CATALOGUE_BUDGET_FLAG,
];

/** True when every definition goes up front: the `--mcp-eager` flag or `eager`. */
export function eagerLoading(options: McpPluginOptions, context: PluginContext): boolean {
  return optionValue(context.flags, EAGER) || options.eager;
}

/** How the model finds MCP tools: the flags, else the factory options. */
export function catalogueSettings(
  options: McpPluginOptions,
  context: PluginContext,
): { mode: CatalogueMode; budget: number } {
  return {
    mode: optionValue(context.flags, CATALOGUE_FLAG) ?? options.catalogue,
    budget: optionValue(context.flags, CATALOGUE_BUDGET_FLAG) ?? options.catalogueBudget,
  };
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
