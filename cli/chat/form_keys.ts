/**
 * The keys of the chat's form box, as a pure function of its state. Filling in: ↑/↓ or
 * Tab/Shift+Tab move between fields, typing edits a text or number field, ←/→ or Space change
 * a yes/no or a single choice, ←/→ move through a multiple choice and Space ticks an option,
 * Enter goes to the next field and from the last one to the review. The review reads the
 * answer back: y sends it, e goes back to edit, n declines; the digits, or ↑/↓ then Enter,
 * choose too. A link question goes straight to its choices: d (done), n (decline). Esc and
 * Ctrl-C cancel from anywhere. A field is checked when it is left, and the answer as a whole
 * before the review.
 *
 * @module
 */
import type { FormAnswer, FormField, FormQuestion, FormValue } from "../../core/form.ts";
import {
  editableText,
  fieldProblem,
  firstProblem,
  type FormValues,
  parseFieldText,
  startValues,
} from "../form_values.ts";
import type { KeyPress } from "./permission_keys.ts";

/** The keys a form reads: the permission question's, with ← → and Shift. */
export type FormKeyPress = KeyPress & {
  leftArrow?: boolean;
  rightArrow?: boolean;
  shift?: boolean;
};

/** Where the form box is. */
export interface FormState {
  stage: "fill" | "review";
  /** The field being filled in. */
  focus: number;
  values: FormValues;
  /** The text typed into the focused text or number field, not yet read as its value. */
  draft: string;
  /** The option under the cursor of a multiple-choice field. */
  option: number;
  /** What is wrong with the focused field's value. */
  problem?: string;
  /** The review's highlighted choice; -1 until ↑ or ↓ picks one. */
  selected: number;
}

/** A choice of the review. */
export type ReviewChoice = "send" | "edit" | "decline" | "done";

/** The review's choices, in order. */
export function reviewChoices(question: FormQuestion): ReviewChoice[] {
  if (question.link) return ["done", "decline"];
  return question.fields.length === 0 ? ["send", "decline"] : ["send", "edit", "decline"];
}

/** The state a form starts in: at its first field with the defaults, or at the review. */
export function initialFormState(question: FormQuestion): FormState {
  const values = startValues(question);
  const state: FormState = {
    stage: question.fields.length === 0 ? "review" : "fill",
    focus: 0,
    values,
    draft: "",
    option: 0,
    selected: -1,
  };
  return focused(question, state, 0);
}

/** A key's effect: the next state, and the answer when the key gave one. */
export interface FormKeyOutcome {
  state: FormState;
  answer?: FormAnswer;
}

const CANCEL: FormAnswer = { action: "cancel" };

/** Is the field edited as typed text. */
function typed(field: FormField): boolean {
  return field.kind === "text" || field.kind === "number" || field.kind === "integer";
}

/** `state` with field `index` focused: its draft is its value as text, its problem cleared. */
function focused(question: FormQuestion, state: FormState, index: number): FormState {
  const field = question.fields[index];
  const { problem: _problem, ...rest } = state;
  if (!field) return { ...rest, focus: index, draft: "" };
  return { ...rest, focus: index, draft: editableText(field, state.values[field.name]), option: 0 };
}

/** The focused field's typed draft read as its value; the state with a problem when wrong. */
function commit(question: FormQuestion, state: FormState): FormState | undefined {
  const field = question.fields[state.focus];
  if (!field) return state;
  let value: FormValue | undefined = state.values[field.name];
  if (typed(field)) {
    const parsed = parseFieldText(field, state.draft);
    if ("problem" in parsed) return undefined;
    value = parsed.value;
  }
  if (fieldProblem(field, value) !== undefined) return undefined;
  const values = { ...state.values };
  if (value === undefined) delete values[field.name];
  else values[field.name] = value;
  return { ...state, values };
}

/** What is wrong with the focused field as it stands. */
function problemOf(question: FormQuestion, state: FormState): string {
  const field = question.fields[state.focus]!;
  if (typed(field)) {
    const parsed = parseFieldText(field, state.draft);
    if ("problem" in parsed) return parsed.problem;
    return fieldProblem(field, parsed.value) ?? "";
  }
  return fieldProblem(field, state.values[field.name]) ?? "";
}

/** Leaves the focused field for field `to` (the review past the last), once its value fits. */
function move(question: FormQuestion, state: FormState, to: number): FormState {
  const committed = commit(question, state);
  if (!committed) return { ...state, problem: problemOf(question, state) };
  const count = question.fields.length;
  if (to < count) return focused(question, committed, Math.max(0, to));
  const wrong = firstProblem(question, committed.values);
  if (wrong) return { ...focused(question, committed, wrong.index), problem: wrong.problem };
  return { ...committed, stage: "review", selected: -1 };
}

/** Typed or pasted text for a one-line field: controls dropped, line breaks as spaces. */
function typedText(input: string): string {
  // deno-lint-ignore no-control-regex
  return input.replace(/\r\n|[\r\n\t]/g, " ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
}

/**
 * `draft` after typed `input`: keys typed faster than they are read arrive as one piece, so
 * Ctrl-U (clear) and Backspace inside it still edit.
 */
function edited(draft: string, input: string): string {
  let text = draft;
  for (const char of input) {
    if (char === "\x15") text = "";
    else if (char === "\x7f" || char === "\b") text = [...text].slice(0, -1).join("");
    else text += typedText(char);
  }
  return text;
}

/** The values a yes/no or single-choice field cycles through (undefined: not set). */
function cycle(field: FormField): (FormValue | undefined)[] {
  const values: (FormValue | undefined)[] = field.kind === "boolean"
    ? [true, false]
    : (field.options ?? []).map((option) => option.value);
  return field.required ? values : [undefined, ...values];
}

function setValue(state: FormState, field: FormField, value: FormValue | undefined): FormState {
  const values = { ...state.values };
  if (value === undefined) delete values[field.name];
  else values[field.name] = value;
  const { problem: _problem, ...rest } = state;
  return { ...rest, values };
}

function fillKey(
  question: FormQuestion,
  state: FormState,
  input: string,
  key: FormKeyPress,
): FormKeyOutcome {
  const field = question.fields[state.focus]!;
  if (key.upArrow || (key.tab && key.shift)) {
    return { state: move(question, state, Math.max(0, state.focus - 1)) };
  }
  if (key.downArrow || key.tab || key.return) {
    const last = state.focus === question.fields.length - 1;
    if ((key.downArrow || key.tab) && last) return { state };
    return { state: move(question, state, state.focus + 1) };
  }
  if (typed(field)) {
    if (key.backspace || key.delete) {
      return { state: { ...state, draft: [...state.draft].slice(0, -1).join("") } };
    }
    if (key.ctrl && input === "u") return { state: { ...state, draft: "" } };
    if (key.ctrl || key.meta || key.leftArrow || key.rightArrow) return { state };
    return { state: { ...state, draft: edited(state.draft, input) } };
  }
  if (field.kind === "choices") {
    const options = field.options ?? [];
    const count = Math.max(1, options.length);
    if (key.leftArrow || key.rightArrow) {
      const option = (state.option + (key.leftArrow ? -1 : 1) + count) % count;
      return { state: { ...state, option } };
    }
    if (input === " ") {
      const chosen = options[state.option]?.value;
      if (chosen === undefined) return { state };
      const now = (state.values[field.name] as string[] | undefined) ?? [];
      const next = now.includes(chosen)
        ? now.filter((item) => item !== chosen)
        : options.map((option) => option.value).filter((v) => v === chosen || now.includes(v));
      return { state: setValue(state, field, next.length > 0 ? next : undefined) };
    }
    return { state };
  }
  if (field.kind === "boolean" && /^[yn]$/i.test(input)) {
    return { state: setValue(state, field, /^y$/i.test(input)) };
  }
  if (key.leftArrow || key.rightArrow || input === " ") {
    const values = cycle(field);
    const at = values.indexOf(state.values[field.name]);
    const step = key.leftArrow ? -1 : 1;
    const next = values[
      ((at < 0 ? (step > 0 ? -1 : 0) : at) + step + values.length) %
      values.length
    ];
    return { state: setValue(state, field, next) };
  }
  return { state };
}

function choose(
  question: FormQuestion,
  state: FormState,
  choice: ReviewChoice,
): FormKeyOutcome {
  if (choice === "edit") return { state: { ...focused(question, state, 0), stage: "fill" } };
  if (choice === "decline") return { state, answer: { action: "decline" } };
  if (choice === "done") return { state, answer: { action: "accept", values: {} } };
  return { state, answer: { action: "accept", values: { ...state.values } } };
}

function reviewKey(
  question: FormQuestion,
  state: FormState,
  input: string,
  key: KeyPress,
): FormKeyOutcome {
  const choices = reviewChoices(question);
  if (key.upArrow || key.downArrow) {
    const count = choices.length;
    const from = state.selected < 0 ? (key.upArrow ? 0 : -1) : state.selected;
    return { state: { ...state, selected: (from + (key.upArrow ? -1 : 1) + count) % count } };
  }
  if (key.return) {
    const choice = choices[state.selected];
    return choice === undefined ? { state } : choose(question, state, choice);
  }
  if (key.ctrl || key.meta || input.length !== 1) return { state };
  const byLetter: Record<string, ReviewChoice> = {
    y: "send",
    e: "edit",
    n: "decline",
    d: "done",
  };
  const choice = byLetter[input.toLowerCase()] ?? choices[Number(input) - 1];
  return choice !== undefined && choices.includes(choice)
    ? choose(question, state, choice)
    : { state };
}

/** What a key does to the form box. Esc and Ctrl-C cancel the question. */
export function formKey(
  question: FormQuestion,
  state: FormState,
  input: string,
  key: FormKeyPress,
): FormKeyOutcome {
  if (key.escape || (key.ctrl && input === "c")) return { state, answer: CANCEL };
  if (state.stage === "review") return reviewKey(question, state, input, key);
  return fillKey(question, state, input, key);
}
