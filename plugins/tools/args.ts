/**
 * Argument checks shared by the built-in tools. Each returns the value or a model-facing
 * message saying which argument is wrong and what it must be; tools turn the message into a
 * failed result.
 *
 * @module
 */

/** A value or the text of what is wrong with it. */
export type Checked<T> = { ok: true; value: T } | { ok: false; text: string };

/** A required string argument. `nonEmpty` also refuses "". */
export function requiredString(
  args: Record<string, unknown>,
  name: string,
  nonEmpty = false,
): Checked<string> {
  const value = args[name];
  if (value === undefined || value === null) {
    return { ok: false, text: `missing string argument: ${name}` };
  }
  if (typeof value !== "string") return { ok: false, text: `${name} must be a string` };
  if (nonEmpty && value === "") return { ok: false, text: `${name} must be a non-empty string` };
  return { ok: true, value };
}

/** An optional string argument; `fallback` when absent. */
export function optionalString(
  args: Record<string, unknown>,
  name: string,
  fallback: string | undefined,
  nonEmpty = false,
): Checked<string | undefined> {
  const value = args[name];
  if (value === undefined || value === null) return { ok: true, value: fallback };
  if (typeof value !== "string") return { ok: false, text: `${name} must be a string` };
  if (nonEmpty && value === "") return { ok: false, text: `${name} must be a non-empty string` };
  return { ok: true, value };
}

/** An optional whole number of at least 1. */
export function optionalPositiveInt(
  args: Record<string, unknown>,
  name: string,
): Checked<number | undefined> {
  const value = args[name];
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    return { ok: false, text: `${name} must be a positive integer` };
  }
  return { ok: true, value };
}

/** Names of arguments the tool does not know, so typos are reported instead of ignored. */
export function unknownArguments(
  args: Record<string, unknown>,
  known: readonly string[],
): string | undefined {
  const extra = Object.keys(args).filter((key) => !known.includes(key));
  if (extra.length === 0) return undefined;
  return `unknown argument${extra.length > 1 ? "s" : ""}: ${extra.join(", ")} ` +
    `(this tool takes ${known.join(", ")})`;
}
