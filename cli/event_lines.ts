/**
 * The plain lines hel writes on stderr while a run goes, outside the Ink chat: tool calls,
 * warnings and retries.
 *
 * @module
 */
import type { HelEvent } from "../core/events.ts";
import { clipChars } from "../core/text.ts";
import { escapeControlCharacters } from "../kit/trust/review.ts";
import { stderrLogger } from "../agent/context_file.ts";
import { writeErr } from "../kit/output.ts";
import { printRetry } from "./retry_line.ts";

/** Tells the person on stderr what happened; `[tool]` lines only when stdout is text. */
export function printEvent(event: HelEvent, toolLines: boolean): void {
  if (event.type === "tool_call" && toolLines) {
    // Arguments can be whole files (write_file): show a line, not a page.
    const shown = clipChars(JSON.stringify(event.args) ?? "", 200);
    const line = escapeControlCharacters(`${event.name} ${shown}`);
    const status = event.status === "done" ? "" : ` (${event.status})`;
    writeErr(`[tool] ${line}${status}\n`);
  } else if (event.type === "warning") {
    stderrLogger.warn(event.text);
  } else if (event.type === "retry") {
    printRetry(event);
  }
}
