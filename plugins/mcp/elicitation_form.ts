/**
 * An elicitation's `requestedSchema` (MCP's flat subset of JSON Schema: string, number,
 * integer, boolean, single- and multiple-choice enums) as the fields of a form question, each
 * with its label, description, default, hint and a check of the schema's rules, so the person
 * is told what is wrong before anything is sent. Bounded: a schema with more fields or choices
 * than a person can answer, or one no answer could satisfy, is refused with the reason.
 *
 * `pattern` is not checked here: a server's regular expression run on hel's side could take
 * minutes on a crafted default (catastrophic backtracking); the server checks its own pattern.
 *
 * @module
 */
import {
  clipChars,
  codePointLength,
  type FormField,
  type FormOption,
  type FormValue,
} from "../../core/mod.ts";

/** Fields a form may have; past this no person reads it. */
export const MAX_FIELDS = 50;
/** Choices a field may offer. */
export const MAX_OPTIONS = 100;
/** Characters of a label or a choice shown; longer ones are cut. */
const MAX_LABEL = 200;
/** Characters of a description shown. */
const MAX_DESCRIPTION = 1_000;
/** Characters of a text default offered; a longer one is not offered. */
const MAX_DEFAULT = 4_000;
/** Characters of a property name; a longer name is the server's mistake. */
const MAX_NAME = 200;

/** The fields, or why the schema cannot be asked. */
export type FormFields = { ok: true; fields: FormField[] } | { ok: false; problem: string };

type Property = Record<string, unknown>;

/** `text` cut to `max` characters with an ellipsis. */
export function cutText(text: string, max: number): string {
  return clipChars(text, max);
}

function number(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === "string")
    ? value
    : undefined;
}

/** The choices a property offers (enum, enum with enumNames, oneOf/anyOf of const+title). */
function optionsOf(source: Property): FormOption[] | undefined {
  const values = strings(source.enum);
  if (values) {
    const names = strings(source.enumNames);
    const labels = names && names.length === values.length ? names : values;
    return dedupe(values.map((value, index) => ({ value, label: labels[index]! })));
  }
  const titled = Array.isArray(source.oneOf) ? source.oneOf : source.anyOf;
  if (!Array.isArray(titled)) return undefined;
  const options = titled.flatMap((item: Property) =>
    typeof item?.const === "string"
      ? [{ value: item.const, label: typeof item.title === "string" ? item.title : item.const }]
      : []
  );
  return dedupe(options);
}

function dedupe(options: FormOption[]): FormOption[] {
  const seen = new Set<string>();
  return options
    .filter((option) => !seen.has(option.value) && seen.add(option.value))
    .map((option) => ({ value: option.value, label: cutText(option.label, MAX_LABEL) }));
}

function range(min: number | undefined, max: number | undefined, unit = ""): string | undefined {
  if (min !== undefined && max !== undefined) return `${min} to ${max}${unit}`;
  if (min !== undefined) return `at least ${min}${unit}`;
  if (max !== undefined) return `at most ${max}${unit}`;
  return undefined;
}

const FORMATS: Record<string, { hint: string; test(value: string): boolean }> = {
  email: { hint: "an email address", test: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) },
  uri: {
    hint: "a web address (URI)",
    test: (v) => /^[a-z][a-z0-9+.-]*:\S+$/i.test(v) && URL.canParse(v),
  },
  date: {
    hint: "a date, YYYY-MM-DD",
    test: (v) =>
      /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
  },
  "date-time": {
    hint: "a date and time, e.g. 2026-01-31T09:30:00Z",
    test: (v) =>
      /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(v) &&
      Number.isFinite(Date.parse(v)),
  },
};

/** A field of `kind` with the property's label, description and default. */
function base(name: string, property: Property, required: boolean) {
  const title = typeof property.title === "string" && property.title.trim() !== ""
    ? property.title
    : name;
  const description = typeof property.description === "string" &&
      property.description.trim() !== ""
    ? { description: cutText(property.description, MAX_DESCRIPTION) }
    : {};
  const value = property.default;
  // A default is shown and edited as it is: one longer than a message is left out.
  const fallback = (typeof value === "string" && value.length <= MAX_DEFAULT) ||
      typeof value === "number" ||
      typeof value === "boolean" || strings(value)
    ? { default: value as FormValue }
    : {};
  return { name, label: cutText(title, MAX_LABEL), ...description, required, ...fallback };
}

/** One property as a field, or what makes it impossible to answer. */
function fieldOf(name: string, property: Property, required: boolean): FormField | string {
  const common = base(name, property, required);
  const options = property.type === "array"
    ? optionsOf((property.items ?? {}) as Property)
    : optionsOf(property);
  if (options !== undefined) {
    if (options.length === 0) return "offers no choices";
    if (options.length > MAX_OPTIONS) {
      return `offers ${options.length} choices; hel shows at most ${MAX_OPTIONS}`;
    }
    if (property.type !== "array") return { ...common, kind: "choice", options };
    const min = number(property.minItems);
    const max = number(property.maxItems);
    if ((min ?? 0) > Math.min(max ?? Infinity, options.length)) {
      return `asks for at least ${min} of ${
        Math.min(max ?? Infinity, options.length)
      } choices, which no answer can give`;
    }
    const hint = range(min, max);
    return {
      ...common,
      kind: "choices",
      options,
      ...(hint ? { hint: `pick ${hint}` } : {}),
      check: (value) => {
        const count = Array.isArray(value) ? value.length : 0;
        if (min !== undefined && count < min) return `pick at least ${min}`;
        if (max !== undefined && count > max) return `pick at most ${max}`;
        return undefined;
      },
    };
  }
  if (property.type === "boolean") return { ...common, kind: "boolean" };
  if (property.type === "number" || property.type === "integer") {
    const min = number(property.minimum);
    const max = number(property.maximum);
    if (min !== undefined && max !== undefined && min > max) {
      return `has a minimum (${min}) above its maximum (${max})`;
    }
    const whole = property.type === "integer" ? "a whole number" : undefined;
    const hint = [whole, range(min, max)].filter((part) => part !== undefined).join(", ");
    return {
      ...common,
      kind: property.type,
      ...(hint ? { hint } : {}),
      check: (value) => {
        if (typeof value !== "number") return "not a number";
        if (min !== undefined && value < min) return `must be at least ${min}`;
        if (max !== undefined && value > max) return `must be at most ${max}`;
        return undefined;
      },
    };
  }
  // A string, with a format and a length.
  const min = number(property.minLength);
  const max = number(property.maxLength);
  if (min !== undefined && max !== undefined && min > max) {
    return `has a minLength (${min}) above its maxLength (${max})`;
  }
  const format = typeof property.format === "string" ? FORMATS[property.format] : undefined;
  const hint = [format?.hint, range(min, max, " characters")].filter((part) => part).join(", ");
  return {
    ...common,
    kind: "text",
    ...(hint ? { hint } : {}),
    check: (value) => {
      if (typeof value !== "string") return "not text";
      const length = codePointLength(value);
      if (min !== undefined && length < min) return `must be at least ${min} characters`;
      if (max !== undefined && length > max) return `must be at most ${max} characters`;
      if (format && !format.test(value)) return `must be ${format.hint}`;
      return undefined;
    },
  };
}

/** The fields of `schema` (an elicitation's `requestedSchema`, checked by the SDK's types). */
export function formFields(schema: {
  properties: Record<string, unknown>;
  required?: string[];
}): FormFields {
  const names = Object.keys(schema.properties);
  if (names.length > MAX_FIELDS) {
    return {
      ok: false,
      problem: `its form has ${names.length} fields; hel asks at most ${MAX_FIELDS}`,
    };
  }
  const required = new Set(schema.required ?? []);
  for (const name of required) {
    if (!names.includes(name)) {
      return {
        ok: false,
        problem: `its form requires ${JSON.stringify(cutText(name, 100))}, which is not one ` +
          "of its fields, so no answer could be valid",
      };
    }
  }
  const fields: FormField[] = [];
  for (const name of names) {
    if (codePointLength(name) > MAX_NAME) {
      return { ok: false, problem: `a field's name is over ${MAX_NAME} characters` };
    }
    const field = fieldOf(name, schema.properties[name] as Property, required.has(name));
    if (typeof field === "string") {
      return { ok: false, problem: `its field ${JSON.stringify(name)} ${field}` };
    }
    fields.push(field);
  }
  return { ok: true, fields };
}

/**
 * The answer's content as the schema asks for it: every field with a value, checked once more
 * (the front end checked each field as it was left). The problem when something does not fit.
 */
export function answerContent(
  fields: readonly FormField[],
  values: Record<string, FormValue>,
): { content: Record<string, FormValue> } | { problem: string } {
  const content: Record<string, FormValue> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (value === undefined) {
      if (field.required) return { problem: `${field.label} is required` };
      continue;
    }
    const problem = kindProblem(field, value) ?? field.check?.(value);
    if (problem !== undefined) return { problem: `${field.label}: ${problem}` };
    content[field.name] = value;
  }
  return { content };
}

/** What makes `value` the wrong kind of value for `field`, or undefined. */
function kindProblem(field: FormField, value: FormValue): string | undefined {
  const offered = (item: unknown) => field.options?.some((option) => option.value === item);
  switch (field.kind) {
    case "text":
      return typeof value === "string" ? undefined : "not text";
    case "number":
      return number(value) === undefined ? "not a number" : undefined;
    case "integer":
      return Number.isInteger(value) ? undefined : "not a whole number";
    case "boolean":
      return typeof value === "boolean" ? undefined : "not yes or no";
    case "choice":
      return offered(value) ? undefined : "not one of the choices";
    case "choices":
      return Array.isArray(value) && value.every(offered) ? undefined : "not among the choices";
  }
}
