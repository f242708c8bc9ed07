/**
 * What both front ends of a form question share (the plain terminal's lines and the chat's
 * box): the values a form starts with, typed text read as a field's value, what is wrong with
 * a value, and a value as the person reads it back. No drawing and no escaping here: callers
 * escape the texts they show.
 *
 * @module
 */
import type { FormField, FormQuestion, FormValue } from "../core/form.ts";

/** The values of a form being filled in; a field without a value is absent. */
export type FormValues = Record<string, FormValue>;

/** Typed text read as a field's value: the value (none for empty text), or what is wrong. */
export type ParsedText = { value: FormValue | undefined } | { problem: string };

/**
 * The values a form starts with: each field's default, when it fits the field (a default
 * the asker's own rules refuse, or a choice it does not offer, is left out).
 */
export function startValues(question: FormQuestion): FormValues {
  const values: FormValues = {};
  for (const field of question.fields) {
    const value = field.default;
    if (value === undefined || !fitsKind(field, value)) continue;
    if (field.check?.(value) !== undefined) continue;
    values[field.name] = value;
  }
  return values;
}

function fitsKind(field: FormField, value: FormValue): boolean {
  const offered = (item: string) => (field.options ?? []).some((option) => option.value === item);
  switch (field.kind) {
    case "text":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "choice":
      return typeof value === "string" && offered(value);
    case "choices":
      return Array.isArray(value) && value.every(offered);
  }
}

/** The option a typed word names: its number in the list, its value or its label. */
function optionOf(field: FormField, word: string): string | undefined {
  const options = field.options ?? [];
  if (/^\d+$/.test(word)) return options[Number(word) - 1]?.value;
  const lower = word.toLowerCase();
  return (options.find((option) => option.value === word) ??
    options.find((option) => option.label.toLowerCase() === lower) ??
    options.find((option) => option.value.toLowerCase() === lower))?.value;
}

/** `text` read as a value of `field`; empty text is no value. */
export function parseFieldText(field: FormField, text: string): ParsedText {
  const trimmed = text.trim();
  if (trimmed === "") return { value: undefined };
  switch (field.kind) {
    case "text":
      return { value: text };
    case "number":
    case "integer": {
      const value = Number(trimmed);
      // Decimal only: Number() would also read "0x10", "0b1" and "" as numbers.
      if (!Number.isFinite(value) || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(trimmed)) {
        return { problem: field.kind === "integer" ? "not a whole number" : "not a number" };
      }
      if (field.kind === "integer" && !Number.isInteger(value)) {
        return { problem: "not a whole number" };
      }
      return { value };
    }
    case "boolean": {
      if (/^(y|yes|true)$/i.test(trimmed)) return { value: true };
      if (/^(n|no|false)$/i.test(trimmed)) return { value: false };
      return { problem: "answer y or n" };
    }
    case "choice": {
      const value = optionOf(field, trimmed);
      return value === undefined ? { problem: "not one of the choices" } : { value };
    }
    case "choices": {
      const words = trimmed.split(",").map((word) => word.trim()).filter((word) => word !== "");
      const values: string[] = [];
      for (const word of words) {
        const value = optionOf(field, word);
        if (value === undefined) return { problem: `${word} is not one of the choices` };
        if (!values.includes(value)) values.push(value);
      }
      return { value: values };
    }
  }
}

/** What is wrong with `value` for `field` (a missing required value too), or undefined. */
export function fieldProblem(field: FormField, value: FormValue | undefined): string | undefined {
  if (value === undefined || (Array.isArray(value) && value.length === 0 && field.required)) {
    return field.required ? "required" : undefined;
  }
  return field.check?.(value);
}

/** The first field whose value is wrong, with what is wrong; undefined when all fit. */
export function firstProblem(
  question: FormQuestion,
  values: FormValues,
): { index: number; problem: string } | undefined {
  for (const [index, field] of question.fields.entries()) {
    const problem = fieldProblem(field, values[field.name]);
    if (problem !== undefined) return { index, problem };
  }
  return undefined;
}

/** `value` as the person reads it back (not escaped); `empty` when there is none. */
export function shownValue(field: FormField, value: FormValue | undefined, empty = ""): string {
  if (value === undefined) return empty;
  const label = (item: string) =>
    field.options?.find((option) => option.value === item)?.label ?? item;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.length === 0 ? empty : value.map(label).join(", ");
  if (field.kind === "choice" && typeof value === "string") return label(value);
  return String(value);
}

/** The value as text to edit (numbers and text as they are; choices by their labels). */
export function editableText(field: FormField, value: FormValue | undefined): string {
  if (value === undefined) return "";
  if (field.kind === "text" || field.kind === "number" || field.kind === "integer") {
    return String(value);
  }
  return shownValue(field, value);
}
