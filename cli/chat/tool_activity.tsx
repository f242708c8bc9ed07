/**
 * One tool call in the chat, from the question to its end: a mark for its status, the tool
 * and what it acts on, and a preview of its output — the first lines of a result, the latest
 * lines of a command still running — or all of it when expanded.
 *
 * @module
 */
import { Box, Text } from "ink";
import { paint, type TextStyle } from "./paint.ts";
import { count as countOf } from "./commands/format.ts";
import { expandTabs as expandLineTabs } from "./styled_text.ts";

/** Where a call is: waiting for the person's answer, running, or ended one of three ways. */
export type ToolActivityStatus = "asking" | "running" | "done" | "failed" | "declined";

/** What the chat knows of one call (text already neutralised). */
export interface ToolActivityState {
  callId: string;
  /** The tool's name, as the model called it. */
  name: string;
  /** One line of its arguments (see `callSummary`). */
  summary: string;
  status: ToolActivityStatus;
  /** Its output so far while it runs, then its result. */
  output: string;
}

/** Props of {@link ToolActivity}. */
export interface ToolActivityProps {
  call: ToolActivityState;
  /** Every line of the output instead of a preview. */
  expanded: boolean;
  color: boolean;
  /** Columns to draw in. */
  width: number;
}

/** Lines of output a preview shows. */
export const PREVIEW_LINES = 4;

const MARKS: Record<ToolActivityStatus, { mark: string; style: TextStyle }> = {
  asking: { mark: "?", style: { color: "yellow" } },
  running: { mark: "⋯", style: { color: "cyan" } },
  done: { mark: "✓", style: { color: "green" } },
  failed: { mark: "✗", style: { color: "red" } },
  // A decision, not a failure: drawn quietly.
  declined: { mark: "⊘", style: { dimColor: true } },
};

/** What a status adds after the summary; a running or finished call needs no word. */
const NOTES: Partial<Record<ToolActivityStatus, string>> = {
  asking: "waiting for your answer",
  failed: "failed",
  declined: "declined",
};

/** The call's line and its output preview. */
export function ToolActivity({ call, expanded, color, width }: ToolActivityProps) {
  const { mark, style } = MARKS[call.status];
  const note = NOTES[call.status];
  const preview = outputPreview(call.output, call.status === "running", expanded);
  const dim = paint(color, { dimColor: true });
  // The first row under the call carries the hook joining it to the call.
  const lead = (row: number) => row === 0 ? "  ⎿  " : "     ";
  const above = preview.hiddenAbove ? 1 : 0;
  const hidden = preview.hidden === "" ? null : (
    <Text wrap="truncate-end">
      {lead(above ? 0 : preview.lines.length)}
      <Text {...dim}>{`… ${preview.hidden} (ctrl+o to expand)`}</Text>
    </Text>
  );
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text {...paint(color, style)}>{mark}</Text>
        <Text {...paint(color, { bold: true })}>{` ${call.name}`}</Text>
        {call.summary === "" ? "" : `  ${call.summary}`}
        {note && (
          <Text {...paint(color, call.status === "failed" ? { color: "red" } : { dimColor: true })}>
            {`  ${note}`}
          </Text>
        )}
      </Text>
      {preview.hiddenAbove && hidden}
      {preview.lines.map((line, index) => (
        <Text key={index} wrap={expanded ? "wrap" : "truncate-end"}>
          {lead(index + above)}
          <Text {...dim}>{line === "" ? " " : line}</Text>
        </Text>
      ))}
      {!preview.hiddenAbove && hidden}
    </Box>
  );
}

/** The output lines to show, and what stands for the lines left out. */
export interface OutputPreview {
  lines: string[];
  /** `+12 lines` after a result's first lines, `12 lines before` above a command's latest; "" for none. */
  hidden: string;
  /** True when the left-out lines come before the ones shown. */
  hiddenAbove: boolean;
}

/** A collapsed preview never hands the layout more of one line than this. */
const PREVIEW_LINE_CHARS = 1_000;

/**
 * The output lines to show: all when expanded; else the first {@link PREVIEW_LINES} of a
 * result, or the latest of a call still running (its newest output is what moves). Linear in
 * the output's length, so a long command's output costs little per update.
 */
export function outputPreview(output: string, running: boolean, expanded: boolean): OutputPreview {
  const text = output.endsWith("\n") ? output.slice(0, -1) : output;
  if (text === "") return { lines: [], hidden: "", hiddenAbove: false };
  if (expanded) return { lines: expandTabs(text).split("\n"), hidden: "", hiddenAbove: false };
  const total = lineCount(text);
  const shown = total <= PREVIEW_LINES
    ? text
    : running
    ? text.slice(startOfLastLines(text, PREVIEW_LINES))
    : text.slice(0, endOfFirstLines(text, PREVIEW_LINES));
  const lines = expandTabs(shown).split("\n").map((line) => line.slice(0, PREVIEW_LINE_CHARS));
  const left = total - lines.length;
  if (left <= 0) return { lines, hidden: "", hiddenAbove: false };
  const count = countOf(left, "line");
  return running
    ? { lines, hidden: `${count} before`, hiddenAbove: true }
    : { lines, hidden: `+${count}`, hiddenAbove: false };
}

function lineCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/** Where the line after the first `count` lines begins, less its newline. */
function endOfFirstLines(text: string, count: number): number {
  let at = -1;
  for (let line = 0; line < count; line++) at = text.indexOf("\n", at + 1);
  return at;
}

/** Where the last `count` lines begin. */
function startOfLastLines(text: string, count: number): number {
  let at = text.length;
  for (let line = 0; line < count; line++) at = text.lastIndexOf("\n", at - 1);
  return at + 1;
}

/** Tabs as spaces to the next stop of eight on every line, as the terminal draws them. */
function expandTabs(text: string): string {
  if (!text.includes("\t")) return text;
  return text.split("\n").map((line) => expandLineTabs(line, 8)).join("\n");
}
