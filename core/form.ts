/**
 * A question with fields that a plugin asks the person on behalf of someone outside hel (an MCP
 * server's elicitation): what each field is, its default and how to check it. The front end
 * draws it — line by line on a plain terminal, as a box in the chat — and gives back the
 * person's answer: the values, a decline or a cancel. Nothing here knows a terminal.
 *
 * Every text in a question but `asker` comes from outside hel: a front end shows it escaped.
 *
 * @module
 */

/** A value the person gives: text, a number, yes or no, or several choices. */
export type FormValue = string | number | boolean | string[];

/** One choice of a `choice` or `choices` field. */
export interface FormOption {
  /** What is sent when it is chosen. */
  value: string;
  /** What the person reads (the value itself when the asker gave no title). */
  label: string;
}

/** What a field takes. */
export type FormFieldKind = "text" | "number" | "integer" | "boolean" | "choice" | "choices";

/** One field of a question. */
export interface FormField {
  /** The key its value is sent under. */
  name: string;
  /** What the person reads as the field's name. */
  label: string;
  description?: string;
  kind: FormFieldKind;
  /** An answer must give it a value. */
  required: boolean;
  /** The choices of a `choice` or `choices` field, in order. */
  options?: readonly FormOption[];
  /** The value the field starts with (the person may change it). */
  default?: FormValue;
  /** A few words on what is accepted ("an email address", "1 to 100", "pick 1 to 3"). */
  hint?: string;
  /** What is wrong with `value` for this field, in a few words, or undefined when it fits. */
  check?(value: FormValue): string | undefined;
}

/** A web address the person is asked to open themselves; hel never opens it. */
export interface FormLink {
  /** The whole address, as given. */
  url: string;
  /** Its host as a browser would reach it (an internationalised name in its `xn--` form). */
  host: string;
  /** What could mislead about where it leads (a user name before `@`, `xn--`, not https). */
  warnings: readonly string[];
}

/** A question with fields (or a link to open), asked of the person. */
export interface FormQuestion {
  /** Who asks, in hel's words: `MCP server "notes"`. */
  asker: string;
  /** The asker's message: why it asks. */
  message: string;
  fields: readonly FormField[];
  /** Set when the question is "open this address, then say when done". */
  link?: FormLink;
  /** What was wrong with the last answer, when the question is asked again. */
  problem?: string;
}

/** The person's answer: the values (accept), an explicit no (decline) or a dismissal (cancel). */
export type FormAnswer =
  | { action: "accept"; values: Record<string, FormValue> }
  | { action: "decline" }
  | { action: "cancel" };
