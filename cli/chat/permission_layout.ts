/**
 * What the permission question draws, as rows that fit the box's inner width: a title naming
 * the tool, the lines that always show (the command's folder, the file, the MCP server and
 * tool), the content (the command, the diff, the arguments), and the choices. Long content is
 * cut to the rows the screen has, saying how many rows are left out. Every piece of outside
 * text is neutralised here, before any styling.
 *
 * @module
 */
import type { ApprovalRequest } from "../../core/permissions.ts";
import { type DiffLine, diffLines } from "./diff_view.ts";
import { type Choice, choicesOf } from "./permission_keys.ts";
import { ruleForScope } from "../../core/permission_rule_text.ts";
import { describeScope } from "./session_rules.ts";
import { shownCommandLine, shownContentLine, shownName } from "./shown_text.ts";
import { wrapColumns, wrapWords } from "./wrap_columns.ts";

/** How a row is styled when colour is on. */
export type RowStyle = DiffLine["kind"] | "title" | "command" | "detail" | "dim" | "plain";

/** One row of the box, no wider than the inner width. */
export interface Row {
  text: string;
  style: RowStyle;
}

/** The parts of the question above the choices. */
export interface QuestionRows {
  /** The title and the lines that are never cut. */
  head: Row[];
  /** The content, whole; cut to fit by {@link fitContent}. */
  content: Row[];
}

/** Rows of a long outside name, at most this many (cut in the middle beyond). */
const MAX_NAME_ROWS = 3;

function rowsOf(text: string, width: number, style: RowStyle): Row[] {
  return wrapColumns(text, width).map((row) => ({ text: row, style }));
}

/** A name that must show whole, or at least both its ends: a path, a folder. */
function nameRows(text: string, width: number, style: RowStyle): Row[] {
  const rows = rowsOf(text, width, style);
  if (rows.length <= MAX_NAME_ROWS) return rows;
  const cut = `… ${rows.length - MAX_NAME_ROWS + 1} rows cut …`;
  return [rows[0]!, { text: cut, style: "dim" }, rows.at(-1)!];
}

function argumentLines(args: unknown): string[] {
  let text: string | undefined;
  try {
    text = JSON.stringify(args, null, 2);
  } catch {
    // Arguments come from JSON, so this is for a tool that built its own.
  }
  return (text ?? String(args)).split("\n");
}

/** Why a rule made hel ask, under the title; none when the access level asks. */
function ruleRows(request: ApprovalRequest, width: number): Row[] {
  const byRule = request.byRule;
  const rule = byRule?.rules[0];
  if (!byRule || !rule) return [];
  const named = `${shownName(rule.rule)} in ${shownName(rule.source)}`;
  const text = byRule.uncertain
    ? `hel cannot tell whether the deny rule ${named} covers this call, so it asks`
    : `asked because of the rule ${named}`;
  return wrapWords(text, width).map((row) => ({ text: row, style: "note" as const }));
}

/** The question's title, fixed lines and content for `request` in `width` columns. */
export function questionRows(request: ApprovalRequest, width: number): QuestionRows {
  const rows = questionRowsWithoutRule(request, width);
  return { ...rows, head: [...rows.head, ...ruleRows(request, width)] };
}

function questionRowsWithoutRule(request: ApprovalRequest, width: number): QuestionRows {
  const tool = shownName(request.toolName);
  const preview = request.preview;
  const title = (what: string) => rowsOf(`${tool} ${what}`, width, "title");
  switch (preview.kind) {
    case "command":
      return {
        head: [
          ...title("wants to run a command"),
          ...nameRows(`in ${shownName(preview.cwd)}`, width, "detail"),
        ],
        content: preview.command.split("\n").flatMap((line, index) =>
          rowsOf(`${index === 0 ? "$" : ">"} ${shownCommandLine(line)}`, width, "command")
        ),
      };
    case "file_change":
      return {
        head: [
          ...title(preview.before === null ? "wants to create a file" : "wants to change a file"),
          ...nameRows(shownName(preview.path), width, "detail"),
        ],
        content: diffLines(preview).flatMap((line) => rowsOf(line.text, width, line.kind)),
      };
    case "arguments": {
      const server = preview.server === undefined ? "" : `MCP server ${shownName(preview.server)}`;
      const named = preview.tool === undefined
        ? server
        : `${server}, tool ${shownName(preview.tool)}`;
      const mcp = preview.server === undefined ? [] : nameRows(named, width, "detail");
      return {
        head: [...title(mcp.length > 0 ? "wants to call an MCP tool" : "wants to run"), ...mcp],
        content: argumentLines(preview.args).flatMap((line) =>
          rowsOf(shownContentLine(line), width, "plain")
        ),
      };
    }
  }
}

/** The content as shown: whole, or its first rows and how many rows were left out. */
export interface FittedContent {
  rows: Row[];
  /** Rows left out (0 when all show). */
  hidden: number;
  /** Whether the content is longer than its room, so v has something to show or fold. */
  long: boolean;
}

/**
 * The content in `room` rows (at least three), the last of them saying how many more there
 * are; all of it when `expanded`.
 */
export function fitContent(
  content: readonly Row[],
  room: number,
  expanded: boolean,
): FittedContent {
  const rows = Math.max(3, room);
  const long = content.length > rows;
  if (!long || expanded) return { rows: [...content], hidden: 0, long };
  const shown = content.slice(0, rows - 1);
  const hidden = content.length - shown.length;
  return {
    rows: [...shown, {
      text: `… ${hidden} more line${hidden === 1 ? "" : "s"} — press v to see all`,
      style: "dim",
    }],
    hidden,
    long,
  };
}

const CHOICE_KEYS: Record<Choice, string> = {
  once: "y",
  always: "a",
  user: "u",
  project: "p",
  no: "n",
};

/** The settings files a "don't ask again" can be saved in, as the question names them. */
export interface SaveFiles {
  user: string;
  project: string;
}

function choiceText(choice: Choice, request: ApprovalRequest, files?: SaveFiles): string {
  if (choice === "once") return "Yes, once";
  if (choice === "no") return "No, and tell hel what to do instead";
  if (choice === "always") {
    return `Yes, and don't ask again this session for ${describeScope(request.scope!)}`;
  }
  const rule = shownName(ruleForScope(request.scope!));
  return choice === "user"
    ? `Yes, and always allow ${rule}: save it in ${shownName(files?.user ?? "")}`
    : `Yes, and allow it in this project from now on: save it in ${
      shownName(files?.project ?? "")
    }`;
}

/** What the question offers for `request`: saving only with files to save in. */
function offersOf(request: ApprovalRequest, files: SaveFiles | undefined) {
  return { always: request.scope !== undefined, save: files !== undefined };
}

/** A choice's rows, `selected` marked with `❯`. */
export interface ChoiceRows {
  choice: Choice;
  selected: boolean;
  rows: string[];
}

/** The choices, numbered, each with its key, wrapped to `width`. */
export function choiceRows(
  request: ApprovalRequest,
  selected: number,
  width: number,
  files?: SaveFiles,
): ChoiceRows[] {
  return choicesOf(offersOf(request, files)).map((choice, index) => {
    const label = `${index + 1}. ${choiceText(choice, request, files)} (${CHOICE_KEYS[choice]})`;
    // The marker's two columns, then the label with its later rows under the label's text.
    const rows = wrapWords(label, width - 2, 3).map((row, at) =>
      `${at === 0 && index === selected ? "❯" : " "} ${row}`
    );
    return { choice, selected: index === selected, rows };
  });
}

/** The key hint under the choices. */
export function hintText(
  request: ApprovalRequest,
  fitted: FittedContent,
  expanded: boolean,
  files?: SaveFiles,
): string {
  const keys = choicesOf(offersOf(request, files)).map((choice) => CHOICE_KEYS[choice])
    .join(" / ");
  const v = fitted.long ? (expanded ? " · v: fold" : " · v: see all") : "";
  return `${keys}, or ↑↓ and Enter · Esc: no${v}`;
}
