/**
 * How full the model's context window is, in percent, for the footer; undefined when the
 * conversation's size or the window is unknown.
 *
 * @module
 */
import type { Run } from "../../agent/run.ts";

/** The share of the window the conversation fills, rounded; undefined when unknown. */
export function contextPercent(run: Run): number | undefined {
  const { used, window } = run.contextUsage();
  if (used === undefined || !window) return undefined;
  return Math.min(100, Math.round((used / window) * 100));
}
