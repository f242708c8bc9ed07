/**
 * A form question on a plain terminal, one line at a time: who asks and why, then each field
 * (its label, description, choices and the value it starts with in brackets), then the answer
 * read back with the choice to send it, edit it, decline or cancel. A link question shows the
 * address and its host on lines of their own and waits for done, decline or cancel; hel never
 * opens it. Every outside text is escaped.
 *
 * @module
 */
import type { FormAnswer, FormField, FormQuestion } from "../core/form.ts";
import { escapeControlCharacters } from "../core/neutralise.ts";
import { clipChars } from "../core/text.ts";
import {
  editableText,
  fieldProblem,
  firstProblem,
  type FormValues,
  parseFieldText,
  shownValue,
  startValues,
} from "./form_values.ts";

/** Reads one answer line after writing `prompt`; undefined when none can come. */
export type AskLine = (prompt: string, signal?: AbortSignal) => Promise<string | undefined>;

/**
 * Outside text on one line: cut to `max` characters, escaped, and a newline shown as `\n` (as
 * the chat's box shows it), so a label cannot start a line that reads as one of hel's.
 */
function shown(text: string, max = 300): string {
  return escapeControlCharacters(clipChars(text, max)).replaceAll("\n", "\\n");
}

/** The asker's message: escaped, its lines indented, at most 40 of them. */
function messageLines(message: string): string {
  const lines = escapeControlCharacters(message).split("\n");
  const kept = lines.slice(0, 40).map((line) => `  ${line}`);
  if (lines.length > 40) kept.push(`  … ${lines.length - 40} more lines`);
  return kept.join("\n");
}

const STOP_WORDS = "a line of just !decline or !cancel stops";

/** The answer when the person answered nothing: the signal aborted or input ended. */
const CANCEL: FormAnswer = { action: "cancel" };

/**
 * Asks `question` through `ask`; `write` shows the lines that are no question. A cancel when
 * input ends or `signal` aborts (Ctrl-C) before the person answered.
 */
export async function askFormByLines(
  question: FormQuestion,
  ask: AskLine,
  write: (text: string) => void,
  signal?: AbortSignal,
): Promise<FormAnswer> {
  if (signal?.aborted) return CANCEL;
  if (question.link) return await askLink(question, ask, write, signal);
  const count = question.fields.length;
  write(
    `\n${question.asker} asks (your answer goes to the server, not to the model):\n` +
      `${messageLines(question.message)}\n` +
      (question.problem ? `  (${shown(question.problem)})\n` : "") +
      (count === 0
        ? ""
        : `${count} field${count === 1 ? "" : "s"}: Enter keeps the value in [brackets], ` +
          `- empties an optional field, ${STOP_WORDS}.\n`),
  );
  const values = startValues(question);
  while (true) {
    for (const [index, field] of question.fields.entries()) {
      const read = await askField(field, `${index + 1}/${count}`, values, ask, write, signal);
      if (read === undefined) return CANCEL;
      if (read !== "ok") return read;
    }
    const problem = firstProblem(question, values);
    if (problem) {
      // Only a field a check could not see alone gets here; ask the form again.
      write(`  ${shown(question.fields[problem.index]!.label)}: ${problem.problem}\n`);
      continue;
    }
    // A form without fields is a yes-or-no question: nothing to read back or edit.
    if (count > 0) write(readBack(question, values));
    const choice = await askUntil(
      count > 0
        ? "Send it? [y]es / [e]dit / [n]o, decline / [c]ancel: "
        : "Answer: [y]es / [n]o, decline / [c]ancel: ",
      count > 0 ? /^(y|yes|e|edit|n|no|c|cancel)$/i : /^(y|yes|n|no|c|cancel)$/i,
      ask,
      signal,
    );
    if (choice === undefined) return CANCEL;
    const letter = choice[0]!.toLowerCase();
    if (letter === "y") return { action: "accept", values: { ...values } };
    if (letter === "n") return { action: "decline" };
    if (letter === "c") return CANCEL;
  }
}

/** Asks one field until its value fits; "ok", a stop, or undefined when no line came. */
async function askField(
  field: FormField,
  position: string,
  values: FormValues,
  ask: AskLine,
  write: (text: string) => void,
  signal?: AbortSignal,
): Promise<"ok" | FormAnswer | undefined> {
  const hint = field.hint ? ` (${shown(field.hint, 80)})` : "";
  const description = field.description ? `: ${shown(field.description)}` : "";
  write(
    `${position} ${shown(field.label, 100)}${field.required ? ", required" : ""}${hint}` +
      `${description}\n${optionLines(field)}`,
  );
  while (true) {
    const current = values[field.name];
    const kept = current === undefined ? "" : `[${shown(editableText(field, current), 100)}] `;
    const line = await ask(`  ${kept}> `, signal);
    if (line === undefined) return undefined;
    const trimmed = line.trim();
    if (trimmed === "!decline") return { action: "decline" };
    if (trimmed === "!cancel") return CANCEL;
    let value = current;
    if (trimmed === "-") value = undefined;
    else if (trimmed !== "") {
      const parsed = parseFieldText(field, line);
      if ("problem" in parsed) {
        write(`  ${parsed.problem}; try again\n`);
        continue;
      }
      value = parsed.value;
    }
    const problem = fieldProblem(field, value);
    if (problem !== undefined) {
      write(`  ${shown(problem, 200)}; try again\n`);
      continue;
    }
    if (value === undefined) delete values[field.name];
    else values[field.name] = value;
    return "ok";
  }
}

function optionLines(field: FormField): string {
  if (field.kind === "boolean") return "  y or n\n";
  if (!field.options) return "";
  const how = field.kind === "choices" ? "numbers separated by commas" : "a number";
  const lines = field.options.map((option, index) => `  ${index + 1}. ${shown(option.label, 100)}`);
  return `${lines.join("\n")}\n  (${how}, or the name)\n`;
}

function readBack(question: FormQuestion, values: FormValues): string {
  const lines = question.fields.map((field) =>
    `  ${shown(field.label, 100)}: ${shown(shownValue(field, values[field.name], "(empty)"))}`
  );
  return `Your answer for ${question.asker}:\n${lines.join("\n")}\n`;
}

/** Asks `prompt` until the line matches `accepted`; undefined when no line came. */
async function askUntil(
  prompt: string,
  accepted: RegExp,
  ask: AskLine,
  signal?: AbortSignal,
): Promise<string | undefined> {
  while (true) {
    const line = await ask(prompt, signal);
    if (line === undefined) return undefined;
    if (accepted.test(line.trim())) return line.trim();
  }
}

async function askLink(
  question: FormQuestion,
  ask: AskLine,
  write: (text: string) => void,
  signal?: AbortSignal,
): Promise<FormAnswer> {
  const link = question.link!;
  write(
    `\n${question.asker} asks you to open a web page (hel does not open it; your answer ` +
      `goes to the server, not to the model):\n${messageLines(question.message)}\n` +
      `  host: ${escapeControlCharacters(link.host)}\n` +
      `  address: ${escapeControlCharacters(link.url)}\n` +
      link.warnings.map((warning) => `  warning: ${warning}\n`).join(""),
  );
  const choice = await askUntil(
    "Open it yourself if you want to, then: [d]one / [n]o, decline / [c]ancel: ",
    /^(d|done|y|yes|n|no|c|cancel)$/i,
    ask,
    signal,
  );
  if (choice === undefined) return CANCEL;
  const letter = choice[0]!.toLowerCase();
  if (letter === "d" || letter === "y") return { action: "accept", values: {} };
  return letter === "n" ? { action: "decline" } : CANCEL;
}
