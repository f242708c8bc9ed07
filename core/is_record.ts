/**
 * The one test for "a JSON object": not null, not an array. Outside data (a server's message,
 * a journal line, a hook's answer) is read through it before its fields are.
 *
 * @module
 */

/** Whether `value` is a plain object whose fields can be read (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
