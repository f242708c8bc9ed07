/**
 * A file change as a unified diff, for the permission question: hunk headers, `-` and `+`
 * lines with three lines of context, a new file as all additions. The lines are computed by the
 * `diff` library from the raw texts and neutralised one by one after (see `shown_text.ts`), so
 * the comparison is exact and what is drawn holds no terminal control.
 *
 * @module
 */
import { structuredPatch, type StructuredPatchHunk } from "diff";
import { shownContentLine, shownName } from "./shown_text.ts";

/** A change as a `file_change` preview carries it; `before` null for a new file. */
export interface FileChange {
  path: string;
  before: string | null;
  after: string;
}

/** One line of the diff, already neutralised; `text` includes its `-`, `+` or ` ` mark. */
export interface DiffLine {
  kind: "header" | "hunk" | "removed" | "added" | "context" | "note";
  text: string;
}

/** Lines of context around each change. */
const CONTEXT_LINES = 3;

/**
 * How long the line comparison may take before the change is shown as the whole old text
 * replaced by the whole new one: a question must come up at once, even for a rewritten file.
 */
const DIFF_TIMEOUT_MS = 200;

/** The text's lines, without the empty one after a final newline. */
function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

function range(start: number, count: number): string {
  // A side with no lines names the line before it, as `diff -u` does (`-0,0` for a new file).
  return `${count === 0 ? start - 1 : start},${count}`;
}

function hunkLines(hunk: StructuredPatchHunk): DiffLine[] {
  const header: DiffLine = {
    kind: "hunk",
    text: `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`,
  };
  return [header, ...hunk.lines.map(markedLine)];
}

function markedLine(line: string): DiffLine {
  const mark = line[0];
  if (mark === "\\") return { kind: "note", text: shownName(line) };
  const kind = mark === "-" ? "removed" : mark === "+" ? "added" : "context";
  return { kind, text: `${mark}${shownContentLine(line.slice(1))}` };
}

/** Every line removed, then every line added: for a new file, or when comparing takes too long. */
function wholeReplacement(before: string, after: string): DiffLine[] {
  const removed = linesOf(before);
  const added = linesOf(after);
  return hunkLines({
    oldStart: 1,
    oldLines: removed.length,
    newStart: 1,
    newLines: added.length,
    lines: [...removed.map((line) => `-${line}`), ...added.map((line) => `+${line}`)],
  });
}

/**
 * The diff of `change` as neutralised lines, without file headers (the question names the
 * file): hunks, or a note when the text does not change.
 */
export function diffLines(change: FileChange): DiffLine[] {
  if (change.before === null) {
    if (change.after === "") return [{ kind: "note", text: "(a new, empty file)" }];
    return wholeReplacement("", change.after);
  }
  if (change.before === change.after) return [{ kind: "note", text: "(the text does not change)" }];
  const patch = structuredPatch("a", "b", change.before, change.after, undefined, undefined, {
    context: CONTEXT_LINES,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (patch === undefined) {
    return [
      { kind: "note", text: "(too many changes to compare line by line: all of it is replaced)" },
      ...wholeReplacement(change.before, change.after),
    ];
  }
  return patch.hunks.flatMap(hunkLines);
}

/** The file headers of a unified diff: `/dev/null` stands for the missing side. */
export function diffHeaders(change: FileChange): DiffLine[] {
  const path = shownName(change.path);
  return [
    { kind: "header", text: `--- ${change.before === null ? "/dev/null" : `a/${path}`}` },
    { kind: "header", text: `+++ b/${path}` },
  ];
}

const STYLES: Record<DiffLine["kind"], [open: string, close: string] | undefined> = {
  header: ["\x1b[1m", "\x1b[22m"],
  hunk: ["\x1b[36m", "\x1b[39m"],
  removed: ["\x1b[31m", "\x1b[39m"],
  added: ["\x1b[32m", "\x1b[39m"],
  context: undefined,
  note: ["\x1b[2m", "\x1b[22m"],
};

/** A diff line with its colour: removals red, additions green, hunk headers cyan. */
export function styledDiffLine(line: DiffLine, color: boolean): string {
  const style = STYLES[line.kind];
  return color && style ? `${style[0]}${line.text}${style[1]}` : line.text;
}

/** The whole unified diff of `change` as text, coloured when `color`. */
export function renderDiff(change: FileChange, options: { color: boolean }): string {
  return [...diffHeaders(change), ...diffLines(change)]
    .map((line) => styledDiffLine(line, options.color))
    .join("\n");
}
