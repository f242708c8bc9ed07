/**
 * How a retried model request is shown: one line per retry, `hel: <cause>; retry 2 of 4 in
 * 2 s`. On a terminal it is one status line that each retry rewrites in place (and the next
 * output erases), so a server that keeps failing does not fill the screen; then the run's
 * final line says the cause with its hint. The full-screen chat words it the same way.
 *
 * @module
 */
import type { RetryEvent } from "../core/events.ts";
import { neutralise } from "../core/neutralise.ts";
import { writeStatus } from "../kit/output.ts";
import { surroundings } from "../kit/surroundings.ts";
import { wrapColumns } from "./chat/wrap_columns.ts";
import { terminalSize } from "./chat/mode.ts";

/** A wait as a person reads it: `800 ms`, `1 s`, `2.5 s`. */
export function shownDelay(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** The words of a retry, without `hel: `: `<cause>; retry 2 of 4 in 2 s`. */
export function retryText(event: RetryEvent): string {
  return `${event.reason}; retry ${event.attempt} of ${event.maxRetries} in ` +
    shownDelay(event.delayMs);
}

/** `text` in at most `columns` (wide characters count two), ending in `…` when cut. */
export function fitColumns(text: string, columns: number): string {
  if (wrapColumns(text, columns).length === 1) return text;
  return `${wrapColumns(text, Math.max(1, columns - 1))[0]}…`;
}

/** Prints a retry on stderr: a status line on a terminal, an ordinary line elsewhere. */
export function printRetry(event: RetryEvent): void {
  const line = `hel: ${neutralise(retryText(event)).replace(/\n/g, " ")}`;
  // One row of the terminal: a wrapped status could not be rewritten in place.
  const columns = surroundings().stderr.isTerminal() ? terminalSize()?.columns : undefined;
  writeStatus(columns && columns > 1 ? fitColumns(line, columns - 1) : line);
}
