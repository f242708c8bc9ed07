/**
 * Model-facing texts about a call's time: how long it waited, and why a call that kept
 * reporting progress was cancelled at its maximum.
 *
 * @module
 */
import { PROGRESS_TIMEOUT_FACTOR } from "./config.ts";

/** "1 second", "2.5 seconds". */
export function seconds(ms: number): string {
  const value = ms / 1000;
  return `${value} second${value === 1 ? "" : "s"}`;
}

/** The model-facing error of a call cancelled at its maximum while still reporting progress. */
export function pastMaximumText(
  server: string,
  callTimeoutMs: number,
  maximumMs: number,
  reports: number,
): string {
  // The maximum is capped at one day, so a long timeout is not multiplied in full.
  const capped = maximumMs !== callTimeoutMs * PROGRESS_TIMEOUT_FACTOR;
  return `MCP request tools/call to ${server} ran past its maximum of ` +
    `${seconds(maximumMs)} despite reporting progress (${reports} ` +
    `report${reports === 1 ? "" : "s"}); the request was cancelled and the server keeps ` +
    `running. Progress restarts the server's ${callTimeoutMs / 1000}-second ` +
    "timeout, but no call may run longer than " +
    `${capped ? "one day" : `${PROGRESS_TIMEOUT_FACTOR} times that`}. Do not ` +
    "repeat the same call: split the work into smaller requests if the tool allows it, or " +
    "continue without this result and tell the user the call did not finish" +
    (capped ? "." : ' (raising the server\'s "timeout" in .hel/mcp.json raises the maximum).');
}
