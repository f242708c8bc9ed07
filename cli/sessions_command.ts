/**
 * `hel sessions` (`list`) prints this project's sessions as a table (or JSON with `--json`);
 * `hel sessions delete <id>` removes one with its spill files; `hel sessions prune
 * --older-than 30d` removes the old ones. None needs an API key or calls a model.
 *
 * @module
 */
import { InvalidArgumentError } from "@commander-js/extra-typings";
import { deleteSession, listSessions, type SessionSummary } from "../agent/session/catalog.ts";
import { pruneSessions } from "../agent/session/prune.ts";
import { shortId } from "../agent/session/session_id.ts";
import { surroundings } from "../kit/surroundings.ts";
import { terminalSize } from "./chat/mode.ts";
import { count } from "./chat/commands/format.ts";

/** The width of a table printed where no terminal tells one (a pipe, a file). */
const WIDTH_OFF_TERMINAL = 120;

/** The columns a table printed on stdout may take. */
export function outputWidth(): number {
  const size = surroundings().stdout.isTerminal() ? terminalSize() : undefined;
  return size?.columns ?? WIDTH_OFF_TERMINAL;
}

/**
 * The table of `rows` with its header, or a note when there is none. The table's module is
 * loaded here, when one is drawn: measuring text widths brings string-width, which every other
 * start of hel does without.
 */
export async function formatSessionList(
  rows: readonly SessionSummary[],
  width = outputWidth(),
  now = Date.now(),
): Promise<string> {
  if (rows.length === 0) return "No sessions in this project.\n";
  const { sessionTable } = await import("./session_table.ts");
  const table = sessionTable(rows, width, now);
  return [table.header, ...table.lines].join("\n") + "\n";
}

/** `hel sessions`: the table, or with `json` every row with its whole id (for scripts). */
export async function sessionsList(project: string, options: { json?: boolean }): Promise<string> {
  const rows = await listSessions(project);
  if (options.json) return JSON.stringify(rows, null, 2) + "\n";
  return await formatSessionList(rows);
}

/** Deletes a session and returns the confirmation line; refusals throw usage errors. */
export async function sessionsDelete(
  project: string,
  given: string,
  helHome: string,
): Promise<string> {
  return `Deleted session ${await deleteSession(project, given, helHome)}.\n`;
}

const UNITS: Record<string, [number, string]> = {
  d: [86_400_000, "day"],
  h: [3_600_000, "hour"],
  m: [60_000, "minute"],
};

/** An age for `--older-than`: a whole number and a unit, d, h or m (`30d`). */
export function parseAge(value: string): { ms: number; text: string } {
  const match = /^(\d+)([dhm])$/.exec(value.trim());
  const amount = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(amount) || amount === 0) {
    throw new InvalidArgumentError(
      `expected a whole number and a unit, d (days), h (hours) or m (minutes), e.g. 30d, ` +
        `got "${value}"`,
    );
  }
  const [unit, name] = UNITS[match[2]!]!;
  return { ms: amount * unit, text: count(amount, name) };
}

/** `hel sessions prune`: what was (or would be) removed, and what was kept in use. */
export async function sessionsPrune(
  project: string,
  helHome: string,
  options: { olderThan: { ms: number; text: string }; dryRun?: boolean },
): Promise<string> {
  const { ms, text } = options.olderThan;
  const result = await pruneSessions(project, helHome, ms, { dryRun: options.dryRun ?? false });
  const lines: string[] = [];
  if (result.removed.length === 0) {
    lines.push(`No session of this project was last written more than ${text} ago.`);
  } else {
    const verb = options.dryRun ? "Would remove" : "Removed";
    const what = count(result.removed.length, "session");
    lines.push(`${verb} ${what} last written more than ${text} ago:`);
    const { sessionTable } = await import("./session_table.ts");
    const table = sessionTable(result.removed, outputWidth(), Date.now());
    lines.push(table.header, ...table.lines);
  }
  if (result.inUse.length > 0) {
    const ids = result.inUse.map((row) => shortId(row.id)).join(", ");
    lines.push(
      `Kept ${count(result.inUse.length, "session")} in use by another hel process: ${ids}`,
    );
  }
  return lines.join("\n") + "\n";
}
