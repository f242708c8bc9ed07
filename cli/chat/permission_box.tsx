/**
 * The permission question of the chat: a box drawn by hel with the tool, what the call would do
 * (a command and its folder, a file's diff, an MCP server's tool and arguments) cut to the
 * screen, and the choices — yes once (y), yes for the session (a, when the call has a scope),
 * yes and save that as a rule in the person's or the project's settings (u, p, when the chat
 * can save), no with what to do instead (n), Esc for a plain no. The layout is in `permission_layout.ts`,
 * the keys in `permission_keys.ts`; this component only draws and listens.
 *
 * @module
 */
import { Box, Text, useInput, usePaste } from "ink";
import { useMemo, useRef, useState } from "react";
import type { ApprovalRequest } from "../../core/permissions.ts";
import {
  INITIAL_PERMISSION_STATE,
  type PermissionAnswer,
  permissionKey,
  type PermissionState,
} from "./permission_keys.ts";
import {
  choiceRows,
  fitContent,
  hintText,
  questionRows,
  type Row,
  type RowStyle,
  type SaveFiles,
} from "./permission_layout.ts";
import type { SessionRules } from "./session_rules.ts";
import { shownName } from "./shown_text.ts";
import { columnsOf, wrapWords } from "./wrap_columns.ts";

export type { PermissionAnswer } from "./permission_keys.ts";

/** Props of {@link PermissionBox}. */
export interface PermissionBoxProps {
  request: ApprovalRequest;
  /** When given, an "a" answer adds the request's scope to it before `onAnswer` is called. */
  rules?: SessionRules;
  /** The settings files a scope can be saved in as a rule (u, p); none: not offered. */
  saveFiles?: SaveFiles;
  /** Columns the box may take. */
  width: number;
  /** Rows the box may take: long content is cut to fit them. */
  rows: number;
  color: boolean;
  /** Called once, with the person's answer. */
  onAnswer(answer: PermissionAnswer): void;
  /** False while something else owns the keys. Default true. */
  isActive?: boolean;
}

/** Border and padding: two columns on each side, a row above and below. */
const FRAME_COLUMNS = 4;
const FRAME_ROWS = 2;

const STYLES: Record<RowStyle, { color?: string; bold?: boolean; dimColor?: boolean }> = {
  title: { bold: true },
  detail: { color: "cyan" },
  command: { bold: true },
  header: { bold: true },
  hunk: { color: "cyan" },
  removed: { color: "red" },
  added: { color: "green" },
  context: {},
  note: { dimColor: true },
  dim: { dimColor: true },
  plain: {},
};

function StyledRow({ row, color }: { row: Row; color: boolean }) {
  return <Text {...(color ? STYLES[row.style] : {})}>{row.text === "" ? " " : row.text}</Text>;
}

const INSTEAD_PROMPT = "No. What should hel do instead? It goes to the model with the refusal.";
const INSTEAD_HINT = "Enter sends · empty: just no · Esc: back to the choices";

/** The instead line as typed, its end kept in view. */
function fieldText(typed: string, width: number): string {
  const shown = shownName(typed);
  // One column for the cursor.
  const room = width - columnsOf("> ") - 1;
  if (columnsOf(shown) <= room) return `> ${shown}`;
  let tail = "";
  for (const char of [...shown].reverse()) {
    if (columnsOf(`…${char}${tail}`) > room) break;
    tail = char + tail;
  }
  return `> …${tail}`;
}

/** The permission question; answers through `onAnswer` once. */
export function PermissionBox(props: PermissionBoxProps) {
  const { request, width, rows, color } = props;
  const inner = Math.max(10, width - FRAME_COLUMNS);
  const [state, setState] = useState<PermissionState>(INITIAL_PERMISSION_STATE);
  // Keys can arrive faster than renders: each is applied to the latest state, not the drawn one.
  const latest = useRef(state);
  const answered = useRef(false);
  const question = useMemo(() => questionRows(request, inner), [request, inner]);
  const offers = { always: request.scope !== undefined, save: props.saveFiles !== undefined };

  const handle = (input: string, key: Parameters<typeof permissionKey>[2]) => {
    if (answered.current) return;
    const outcome = permissionKey(latest.current, input, key, offers);
    latest.current = outcome.state;
    setState(outcome.state);
    if (!outcome.answer) return;
    answered.current = true;
    if (outcome.answer.always && request.scope) props.rules?.add(request.scope);
    props.onAnswer(outcome.answer);
  };
  const active = props.isActive ?? true;
  useInput(handle, { isActive: active });
  // A paste is text for the instead line only; as choices it would answer by accident.
  usePaste((text) => handle(text, {}), { isActive: active && state.mode === "instead" });

  const choices = choiceRows(request, state.selected, inner, props.saveFiles);
  const choiceRowCount = choices.reduce((sum, choice) => sum + choice.rows.length, 0);
  // The room is the same in both modes, so the content does not jump when n is pressed.
  const below = Math.max(choiceRowCount, wrapWords(INSTEAD_PROMPT, inner).length + 1) + 1;
  const room = rows - FRAME_ROWS - question.head.length - 2 - below;
  const fitted = fitContent(question.content, room, state.expanded);

  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      {...(color ? { borderColor: "yellow" } : {})}
      paddingX={1}
      width={width}
    >
      {question.head.map((row, index) => <StyledRow key={`h${index}`} row={row} color={color} />)}
      <Box height={1} />
      {fitted.rows.map((row, index) => <StyledRow key={`c${index}`} row={row} color={color} />)}
      <Box height={1} />
      {state.mode === "choose"
        ? (
          <>
            {choices.flatMap((choice) =>
              choice.rows.map((text, index) => (
                <Text
                  key={`${choice.choice}${index}`}
                  {...(color && choice.selected ? { color: "cyan", bold: true } : {})}
                >
                  {text}
                </Text>
              ))
            )}
            <Text {...(color ? { dimColor: true } : {})}>
              {hintText(request, fitted, state.expanded, props.saveFiles)}
            </Text>
          </>
        )
        : (
          <>
            {wrapWords(INSTEAD_PROMPT, inner).map((text, index) => (
              <Text key={`p${index}`}>{text}</Text>
            ))}
            <Text>
              {fieldText(state.instead, inner)}
              <Text inverse></Text>
            </Text>
            <Text {...(color ? { dimColor: true } : {})}>{INSTEAD_HINT}</Text>
          </>
        )}
    </Box>
  );
}
