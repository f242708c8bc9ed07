/**
 * The wording of argument problems, shared by the zod check of built-in tools and the JSON
 * Schema check of other tools (MCP): each problem names the argument, says what was wrong and
 * what it must be, so the model can fix the call in one go.
 *
 * @module
 */

/** Decoded arguments that fit a tool's parameters, or what is wrong with them. */
export type ArgumentCheck =
  | { ok: true; args: Record<string, unknown> }
  | {
    ok: false;
    problems: string[];
    /** No arguments could fit: the tool cannot be called at all (its schema is broken). */
    unusable?: boolean;
  };

/** The JSON type of a decoded value, with whole numbers as `integer`. */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** `a string`, `an integer`, or `one of a string, a null`. */
export function describeType(wanted: unknown): string {
  const types = (Array.isArray(wanted) ? wanted : [wanted]).map(String);
  const named = types.map((type) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`));
  return named.length === 1 ? named[0]! : `one of ${named.join(", ")}`;
}

/** `path`, `names[0]`, `filter.kind`: where in the arguments a problem is. */
export function argumentPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const part of path) {
    text += typeof part === "number"
      ? `[${part}]`
      : text === ""
      ? String(part)
      : `.${String(part)}`;
  }
  return text === "" ? "the arguments" : text;
}

/** The value at `path` in `args`, or undefined when it is not there. */
export function valueAt(args: unknown, path: readonly PropertyKey[]): unknown {
  let value = args;
  for (const part of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

/** The problem of a required argument left out (or sent as null). */
export const missingText = (name: string) => `${name} is required but missing`;

/** The problem of arguments the tool does not take, listing the ones it does. */
export function unknownText(names: readonly string[], known: readonly string[]): string {
  return `unknown argument${names.length === 1 ? "" : "s"} ${names.join(", ")} ` +
    `(this tool takes ${known.length === 0 ? "no arguments" : known.join(", ")})`;
}

/** A wrong type: `path must be a string, not integer`. */
export function typeText(name: string, wanted: unknown, value: unknown): string {
  return `${name} must be ${describeType(wanted)}, not ${jsonType(value)}`;
}

/** A value outside a list: `mode must be one of "fast", "slow"`. */
export function enumText(name: string, allowed: readonly unknown[]): string {
  return `${name} must be one of ${allowed.map((item) => JSON.stringify(item)).join(", ")}`;
}

/**
 * The arguments without top-level nulls: models often send null for an optional argument, so
 * null counts as absent (and a required one sent as null is missing).
 */
export function withoutNulls(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
}
