/**
 * How the trust review lays out a trust summary: the plugin that owns the file builds
 * the summary from the parsed file (never from its text, whose comments and blank lines could
 * stage a different picture), and this fits the question and every entry's command on a
 * 24-row, 80-column terminal.
 *
 * @module
 */
import { columnsOf, cutToColumns, fitNames, wrapToRows } from "./review_text.ts";

/** An entry with every outside string already escaped for the terminal. */
export interface ShownEntry {
  title: string;
  /** What precedes the command: `run` for a program, `sh -c` for a shell command line. */
  runLabel: string;
  run: string;
  /** False for a setting: no folder and environment row, no sandbox tag unless it is off. */
  program: boolean;
  folder: string | undefined;
  envNames: readonly string[];
  sandbox: boolean;
}

/** The screen the review is laid out for: the smallest common terminal. */
export const REVIEW_SCREEN = { rows: 24, columns: 80 } as const;

/** The rows of a detailed entry without extra rows for its command. */
const DETAILED_ROWS = 3;
/** The most rows a command may take in the detailed layout. */
const MAX_RUN_ROWS = 4;

/**
 * The entries in at most `rows` rows of `columns`: three rows each (title and sandbox, command,
 * folder and environment names) when they fit, else one row each, else as many as fit (those
 * outside the sandbox first) and a last row built by `hidden` from how many were left out.
 */
export function layoutEntries(
  entries: readonly ShownEntry[],
  rows: number,
  columns: number,
  hidden: (count: number) => string,
): string[] {
  if (entries.length * DETAILED_ROWS <= rows) {
    const runRows = Math.min(
      MAX_RUN_ROWS,
      1 + Math.floor((rows - entries.length * DETAILED_ROWS) / Math.max(1, entries.length)),
    );
    return entries.flatMap((entry) => detailed(entry, columns, runRows));
  }
  // When some must be left out, entries outside the sandbox are never among them.
  const kept = new Set(
    [...entries.filter((entry) => !entry.sandbox), ...entries.filter((entry) => entry.sandbox)]
      .slice(0, entries.length <= rows ? rows : rows - 1),
  );
  const shown = entries.filter((entry) => kept.has(entry));
  const lines = shown.map((entry) => compact(entry, columns));
  if (shown.length < entries.length) {
    lines.push(cutToColumns(hidden(entries.length - shown.length), columns));
  }
  return lines;
}

/** The sandbox state; an entry outside it is marked so it cannot be missed. */
function sandboxTag(entry: ShownEntry, compactForm: boolean): string {
  if (!entry.program) {
    return entry.sandbox ? "" : compactForm ? " [!! SANDBOX OFF]" : " · !! SANDBOX OFF";
  }
  if (entry.sandbox) return compactForm ? " [sandbox on]" : " · sandbox: on";
  return compactForm ? " [!! SANDBOX OFF]" : " · !! SANDBOX OFF: runs with your full rights";
}

function detailed(entry: ShownEntry, columns: number, runRows: number): string[] {
  const tag = sandboxTag(entry, false);
  const title = cutToColumns(entry.title, columns - columnsOf(tag)) + tag;
  const prefix = `  ${entry.runLabel}: `;
  const indent = " ".repeat(prefix.length);
  const run = wrapToRows(entry.run, columns - prefix.length, columns - indent.length, runRows)
    .map((row, index) => (index === 0 ? prefix : indent) + row);
  if (!entry.program) return [title, ...run];
  const folder = `  folder: ${entry.folder ?? "the project"}`;
  const envLabel = " · env: ";
  const names = entry.envNames.length === 0 ? "none set" : entry.envNames;
  const folderShown = cutToColumns(folder, Math.max(20, columns - envLabel.length - 24));
  const room = columns - columnsOf(folderShown) - envLabel.length;
  const env = typeof names === "string" ? names : fitNames(names, room);
  return [title, ...run, folderShown + envLabel + env];
}

function compact(entry: ShownEntry, columns: number): string {
  const tag = sandboxTag(entry, true);
  const title = cutToColumns(entry.title, Math.floor(columns / 3)) + tag +
    (entry.runLabel === "run" ? ": " : ` ${entry.runLabel}: `);
  return title + cutToColumns(entry.run, columns - columnsOf(title));
}
