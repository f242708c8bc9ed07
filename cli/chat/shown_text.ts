/**
 * Outside text as the permission question shows it (the model wrote the command, the file's
 * contents and the arguments): every control and invisible character visible, and long runs of
 * blanks counted, so what the person approves reads exactly as what runs and padding cannot
 * push the rest of it out of sight. hel's own styling is added after.
 *
 * @module
 */
import { escapeControlCharacters, shownBlankRuns } from "../../core/neutralise.ts";

/** Leading indentation up to this many columns is kept as it is (nested code, JSON). */
const KEPT_INDENT_COLUMNS = 64;

/** Columns a tab takes in a file's line. */
const TAB_COLUMNS = 4;

/**
 * A line of a command or a name (no newline in it): controls, invisibles and tabs shown as
 * escapes, runs of eight or more blanks counted (`[5000 spaces]`).
 */
export function shownCommandLine(line: string): string {
  return shownBlankRuns(escapeControlCharacters(line).replaceAll("\t", "\\t"));
}

/** A name on one line: a newline in it is shown as `\n`, like every other control. */
export function shownName(name: string): string {
  return shownCommandLine(name.replaceAll("\n", "\\n"));
}

/**
 * A line of a file or of pretty-printed arguments (no newline in it): controls and invisibles
 * shown as escapes, tabs as spaces, the indentation kept when it is no deeper than
 * {@link KEPT_INDENT_COLUMNS} columns, and other runs of eight or more blanks counted.
 */
export function shownContentLine(line: string): string {
  const escaped = escapeControlCharacters(line);
  const indent = /^[ \t]*/.exec(escaped)![0];
  const columns = [...indent].reduce((sum, char) => sum + (char === "\t" ? TAB_COLUMNS : 1), 0);
  const rest = shownBlankRuns(
    escaped.slice(indent.length).replaceAll("\t", " ".repeat(TAB_COLUMNS)),
  );
  if (columns <= KEPT_INDENT_COLUMNS) return " ".repeat(columns) + rest;
  return `[indented ${columns} columns] ${rest}`;
}
