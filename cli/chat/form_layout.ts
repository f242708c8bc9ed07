/**
 * What the chat's form box draws, as rows that fit its inner width: who asks and that the
 * answer goes to it and never to the model, the asker's message, a link's host on a row of its
 * own and its whole address, then the fields around the focused one (its description, hint,
 * choices and what is wrong with it), or the answer read back, and the keys. Every outside text
 * is escaped here, before any styling.
 *
 * @module
 */
import type { FormField, FormQuestion } from "../../core/form.ts";
import { shownValue } from "../form_values.ts";
import type { FormState, ReviewChoice } from "./form_keys.ts";
import { reviewChoices } from "./form_keys.ts";
import { shownName } from "./shown_text.ts";
import { wrapColumns, wrapWords } from "./wrap_columns.ts";

/** How a row is styled when colour is on. */
export type FormRowStyle = "title" | "host" | "focus" | "warning" | "problem" | "dim" | "plain";

/** One row of the box, no wider than the inner width. */
export interface FormRow {
  text: string;
  style: FormRowStyle;
  /** The row ends with the text cursor (the focused field being typed into). */
  cursor?: boolean;
}

/** The box's rows: the head (never cut), the body (fitted to the room) and the foot. */
export interface FormRows {
  head: FormRow[];
  body: FormRow[];
  foot: FormRow[];
}

/** Rows of the asker's message at most; the rest is counted. */
const MESSAGE_ROWS = 8;
/** Rows of a focused field's description at most. */
const DESCRIPTION_ROWS = 3;
/** Rows of a field's choices at most, around the one under the cursor. */
const OPTION_ROWS = 7;

function rows(text: string, width: number, style: FormRowStyle, indent = 0): FormRow[] {
  return wrapWords(text, width - indent).map((row) => ({
    text: " ".repeat(indent) + row,
    style,
  }));
}

/** Outside text on one row: escaped, cut to `width` columns with an ellipsis. */
function oneRow(text: string, width: number): string {
  const wrapped = wrapColumns(text, Math.max(1, width - 1));
  return wrapped.length > 1 ? `${wrapped[0]}…` : wrapped[0]!;
}

function messageRows(message: string, width: number): FormRow[] {
  const all = message.split("\n").flatMap((line) => rows(shownName(line), width, "plain"));
  if (all.length <= MESSAGE_ROWS) return all;
  const hidden = all.length - MESSAGE_ROWS + 1;
  return [...all.slice(0, MESSAGE_ROWS - 1), { text: `… ${hidden} more rows`, style: "dim" }];
}

function headRows(question: FormQuestion, width: number): FormRow[] {
  const head = [
    ...rows(`${question.asker} asks you`, width, "title"),
    ...rows("Your answer goes to the server, never to the model.", width, "dim"),
    ...messageRows(question.message, width),
  ];
  if (question.problem) head.push(...rows(shownName(question.problem), width, "problem"));
  const link = question.link;
  if (!link) return head;
  head.push(
    { text: "", style: "plain" },
    ...rows(`host: ${shownName(link.host)}`, width, "host"),
    ...wrapColumns(shownName(link.url), width).map((text) => ({ text, style: "plain" as const })),
    ...link.warnings.flatMap((warning) => rows(`warning: ${warning}`, width, "warning")),
    ...rows(
      "hel does not open it: copy it into your browser if you want to go there.",
      width,
      "dim",
    ),
  );
  return head;
}

/** A field's value on its row. */
function valueText(field: FormField, state: FormState, focus: boolean): string {
  const value = state.values[field.name];
  if (focus && (field.kind === "text" || field.kind === "number" || field.kind === "integer")) {
    return shownName(state.draft);
  }
  const shown = shownName(shownValue(field, value, "(not set)"));
  return focus && (field.kind === "boolean" || field.kind === "choice") ? `‹ ${shown} ›` : shown;
}

function optionRows(field: FormField, state: FormState, width: number): FormRow[] {
  const options = field.options ?? [];
  const value = state.values[field.name];
  const many = field.kind === "choices";
  const at = many ? state.option : Math.max(0, options.findIndex((o) => o.value === value));
  const first = Math.min(
    Math.max(0, at - Math.floor(OPTION_ROWS / 2)),
    Math.max(0, options.length - OPTION_ROWS),
  );
  return options.slice(first, first + OPTION_ROWS).map((option, offset) => {
    const index = first + offset;
    const chosen = many
      ? Array.isArray(value) && value.includes(option.value)
      : option.value === value;
    const mark = many ? (chosen ? "[x]" : "[ ]") : (chosen ? "(•)" : "( )");
    const cursor = many && index === at ? "›" : " ";
    return {
      text: oneRow(`   ${cursor} ${mark} ${shownName(option.label)}`, width),
      style: many && index === at ? "focus" : "plain",
    };
  });
}

function focusedRows(field: FormField, state: FormState, width: number): FormRow[] {
  const label = `❯ ${shownName(field.label)}${field.required ? " *" : ""}: `;
  const value = valueText(field, state, true);
  const typedField = field.kind === "text" || field.kind === "number" || field.kind === "integer";
  const line: FormRow = typedField
    ? { text: keepEnd(label, value, width - 1), style: "focus", cursor: true }
    : { text: oneRow(label + value, width), style: "focus" };
  const extra: FormRow[] = [];
  if (field.description) {
    extra.push(
      ...rows(shownName(field.description), width, "dim", 4).slice(0, DESCRIPTION_ROWS),
    );
  }
  if (field.hint) extra.push(...rows(shownName(field.hint), width, "dim", 4));
  if (field.kind === "choice" || field.kind === "choices") {
    extra.push(...optionRows(field, state, width));
  }
  if (state.problem) extra.push(...rows(`! ${shownName(state.problem)}`, width, "problem", 4));
  return [line, ...extra];
}

/** `label` then as much of the end of `value` as fits in `width` columns. */
function keepEnd(label: string, value: string, width: number): string {
  const whole = label + value;
  if (wrapColumns(whole, width).length === 1) return whole;
  const room = Math.max(1, width - wrapColumns(label, width)[0]!.length - 1);
  const chars = [...value];
  let tail = "";
  for (let index = chars.length - 1; index >= 0; index--) {
    if (wrapColumns(chars[index]! + tail, room).length > 1) break;
    tail = chars[index]! + tail;
  }
  return `${label}…${tail}`;
}

function fieldRows(question: FormQuestion, state: FormState, width: number, room: number) {
  const fields = question.fields;
  const focused = focusedRows(fields[state.focus]!, state, width);
  const others = Math.max(0, room - focused.length);
  let first = Math.max(0, state.focus - Math.floor(others / 2));
  const last = Math.min(fields.length, first + others + 1);
  first = Math.max(0, Math.min(first, last - others - 1));
  const body: FormRow[] = [];
  for (let index = first; index < last; index++) {
    const field = fields[index]!;
    if (index === state.focus) body.push(...focused);
    else {
      const text = `  ${shownName(field.label)}${field.required ? " *" : ""}: ` +
        valueText(field, state, false);
      body.push({ text: oneRow(text, width), style: "plain" });
    }
  }
  return body;
}

function reviewRows(question: FormQuestion, state: FormState, width: number, room: number) {
  const all = question.fields.map((field): FormRow => ({
    text: oneRow(
      `  ${shownName(field.label)}: ${
        shownName(shownValue(field, state.values[field.name], "(empty)"))
      }`,
      width,
    ),
    style: "plain",
  }));
  if (all.length <= room) return all;
  const hidden = all.length - room + 1;
  return [...all.slice(0, room - 1), { text: `  … ${hidden} more`, style: "dim" as const }];
}

const CHOICE_TEXT: Record<ReviewChoice, string> = {
  send: "Send it (y)",
  edit: "Edit the answer (e)",
  decline: "No, decline (n)",
  done: "Done (d)",
};

function footRows(question: FormQuestion, state: FormState, width: number): FormRow[] {
  if (state.stage === "fill") {
    const field = question.fields[state.focus]!;
    const change = field.kind === "choices"
      ? "←→ choice · Space ticks"
      : field.kind === "boolean" || field.kind === "choice"
      ? "←→ or Space changes"
      : "type the value";
    const where = `field ${state.focus + 1} of ${question.fields.length}`;
    return rows(`${where} · ${change} · ↑↓ field · Enter next · Esc cancel`, width, "dim");
  }
  const choices = reviewChoices(question).map((choice, index): FormRow => ({
    text: `${index === state.selected ? "❯" : " "} ${index + 1}. ${CHOICE_TEXT[choice]}`,
    style: index === state.selected ? "focus" : "plain",
  }));
  const keys = reviewChoices(question).map((choice) => CHOICE_TEXT[choice].slice(-2, -1));
  return [
    ...choices,
    ...rows(`${keys.join(" / ")}, or ↑↓ and Enter · Esc: cancel`, width, "dim"),
  ];
}

/** The rows of `question` in `state`, the body fitted to `maxRows` less the head and foot. */
export function formRows(
  question: FormQuestion,
  state: FormState,
  width: number,
  maxRows: number,
): FormRows {
  const head = headRows(question, width);
  const foot = footRows(question, state, width);
  const room = Math.max(3, maxRows - head.length - foot.length - 2);
  const body = question.fields.length === 0
    ? []
    : state.stage === "fill"
    ? fieldRows(question, state, width, room)
    : [
      ...rows(`Your answer for ${question.asker}:`, width, "plain"),
      ...reviewRows(question, state, width, room - 1),
    ];
  return { head, body, foot };
}
