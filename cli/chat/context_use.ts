/**
 * How full the model's context window is, in percent, for the footer: the prompt tokens the
 * server last reported over the window; undefined when either is unknown.
 *
 * @module
 */
import type { Run } from "../../agent/run.ts";

/** What the run reports of its context (agent/run.ts `contextUsage`). */
interface ContextUsage {
  used: number | undefined;
  window: number | undefined;
}

/** The percentage of the window the last request used, rounded; undefined when unknown. */
export function contextPercent(run: Run): number | undefined {
  const reported = (run as Run & { contextUsage?(): ContextUsage }).contextUsage?.();
  if (reported?.used === undefined || !reported.window) return undefined;
  return Math.min(100, Math.round((reported.used / reported.window) * 100));
}
