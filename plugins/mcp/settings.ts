/**
 * The plugin's timing settings: defaults, factory options (from `deno.json`) and the hidden
 * `--mcp-startup-timeout` / `--mcp-shutdown-wait` flags tests use to stay fast.
 *
 * @module
 */
import type { PluginContext } from "../../core/mod.ts";
import { DEFAULT_SHUTDOWN_WAIT_MS } from "./shutdown.ts";

/** One shared deadline for starting every server. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;

/** Factory options (from `deno.json`); the hidden flags override them per run. */
export interface McpPluginOptions {
  startupTimeoutMs?: number;
  shutdownWaitMs?: number;
  /**
   * Send every MCP tool definition in every request instead of listing names and loading on
   * demand (no `load_mcp_tool`). For comparisons such as `deno task bench`, not everyday use.
   */
  eager?: boolean;
}

/** True when every definition goes up front: the `--mcp-eager` flag or `eager`. */
export function eagerLoading(options: McpPluginOptions, context: PluginContext): boolean {
  return context.flags.mcpEager === true || options.eager === true;
}

/** Timing settings of one run or command. */
export interface Timings {
  startupMs: number;
  shutdownWaitMs: number;
}

/** The timings from the flags, else the factory options, else the defaults. */
export function timings(options: McpPluginOptions, context: PluginContext): Timings {
  const ms = (flag: unknown, option: number | undefined, fallback: number) => {
    const value = Number(flag ?? option ?? fallback);
    return Number.isFinite(value) && value >= 0 ? value : fallback;
  };
  return {
    startupMs: ms(
      context.flags.mcpStartupTimeout,
      options.startupTimeoutMs,
      DEFAULT_STARTUP_TIMEOUT_MS,
    ),
    shutdownWaitMs: ms(
      context.flags.mcpShutdownWait,
      options.shutdownWaitMs,
      DEFAULT_SHUTDOWN_WAIT_MS,
    ),
  };
}
