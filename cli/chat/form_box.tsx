/**
 * The chat's form question (an MCP server's elicitation): a box like the permission box with
 * who asks, the message, the fields or the link, and the keys. The layout is in
 * `form_layout.ts`, the keys in `form_keys.ts`; this component only draws and listens.
 *
 * @module
 */
import { Box, Text, useInput, usePaste } from "ink";
import { useRef, useState } from "react";
import type { FormAnswer, FormQuestion } from "../../core/form.ts";
import { formKey, type FormState, initialFormState } from "./form_keys.ts";
import { type FormRow, formRows, type FormRowStyle } from "./form_layout.ts";

/** Props of {@link FormBox}. */
export interface FormBoxProps {
  question: FormQuestion;
  /** Columns the box may take. */
  width: number;
  /** Rows the box may take: the fields scroll to fit them. */
  rows: number;
  color: boolean;
  /** Called once, with the person's answer. */
  onAnswer(answer: FormAnswer): void;
}

/** Border and padding: two columns on each side, a row above and below. */
const FRAME_COLUMNS = 4;
const FRAME_ROWS = 2;

const STYLES: Record<FormRowStyle, { color?: string; bold?: boolean; dimColor?: boolean }> = {
  title: { bold: true },
  host: { bold: true, color: "cyan" },
  focus: { color: "cyan" },
  warning: { color: "yellow" },
  problem: { color: "red" },
  dim: { dimColor: true },
  plain: {},
};

function Row({ row, color }: { row: FormRow; color: boolean }) {
  const style = color ? STYLES[row.style] : row.style === "title" ? { bold: true } : {};
  return (
    <Text {...style}>
      {row.text === "" && !row.cursor ? " " : row.text}
      {row.cursor && <Text inverse></Text>}
    </Text>
  );
}

/** The form question; answers through `onAnswer` once. */
export function FormBox(props: FormBoxProps) {
  const { question, width, rows, color } = props;
  const inner = Math.max(10, width - FRAME_COLUMNS);
  const [state, setState] = useState<FormState>(() => initialFormState(question));
  // Keys can arrive faster than renders: each is applied to the latest state, not the drawn one.
  const latest = useRef(state);
  const answered = useRef(false);

  const handle = (input: string, key: Parameters<typeof formKey>[3]) => {
    if (answered.current) return;
    // Keys typed faster than the terminal is read arrive as one piece: text, then its Enter.
    if (input.length > 1 && input.endsWith("\r") && !key.return) {
      handle(input.slice(0, -1), {});
      return handle("", { return: true });
    }
    const outcome = formKey(question, latest.current, input, key);
    latest.current = outcome.state;
    setState(outcome.state);
    if (!outcome.answer) return;
    answered.current = true;
    props.onAnswer(outcome.answer);
  };
  useInput(handle);
  // A paste is text for a field being typed into; as keys it would answer by accident.
  usePaste((text) => {
    const field = question.fields[latest.current.focus];
    const typed = field?.kind === "text" || field?.kind === "number" || field?.kind === "integer";
    if (latest.current.stage === "fill" && typed) handle(text, {});
  });

  const { head, body, foot } = formRows(question, state, inner, rows - FRAME_ROWS);
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      {...(color ? { borderColor: "magenta" } : {})}
      paddingX={1}
      width={width}
    >
      {head.map((row, index) => <Row key={`h${index}`} row={row} color={color} />)}
      {body.length > 0 && <Box height={1} />}
      {body.map((row, index) => <Row key={`b${index}`} row={row} color={color} />)}
      <Box height={1} />
      {foot.map((row, index) => <Row key={`f${index}`} row={row} color={color} />)}
    </Box>
  );
}
