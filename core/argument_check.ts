/**
 * Checks a call's arguments against the top level of its tool's JSON Schema before anything
 * else sees the call: a call that cannot run is answered at once, instead of being shown to
 * PreToolUse hooks, put to the person as an approval question, or sent to an MCP server.
 *
 * Deliberately shallow and lenient: only `required`, `additionalProperties: false`, and the
 * `type` and `enum` of each named property are checked; `null` counts as absent (models often
 * send it for optional arguments, and the tools read it so); anything the check does not
 * understand is left to the tool.
 *
 * @module
 */
import type { JsonSchema } from "./types.ts";

const record = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Equal as JSON; a value too deep to compare counts as different. */
function same(a: unknown, b: unknown): boolean {
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function fitsType(value: unknown, wanted: unknown): boolean {
  const types = Array.isArray(wanted) ? wanted : [wanted];
  if (!types.every((type) => typeof type === "string")) return true; // not understood
  const actual = jsonType(value);
  return types.some((type) => type === actual || (type === "number" && actual === "integer"));
}

function describeType(wanted: unknown): string {
  const types = (Array.isArray(wanted) ? wanted : [wanted]).map(String);
  const named = types.map((type) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`));
  return named.length === 1 ? named[0]! : `one of ${named.join(", ")}`;
}

/**
 * What is wrong with `args` for `schema`, one entry per problem (empty when the call fits or
 * the schema is not an object schema this check understands).
 */
export function argumentProblems(
  schema: JsonSchema | undefined,
  args: Record<string, unknown>,
): string[] {
  if (!record(schema) || schema.type !== "object") return [];
  const properties = record(schema.properties) ? schema.properties : {};
  const problems: string[] = [];
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const name of required) {
    if (typeof name === "string" && (args[name] === undefined || args[name] === null)) {
      problems.push(`${name} is required but missing`);
    }
  }
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    const property = properties[name];
    if (property === undefined) {
      if (schema.additionalProperties === false) unknown.push(name);
      continue;
    }
    if (value === null || value === undefined || !record(property)) continue;
    if ("type" in property && !fitsType(value, property.type)) {
      problems.push(`${name} must be ${describeType(property.type)}, not ${jsonType(value)}`);
    } else if (Array.isArray(property.enum) && !property.enum.some((v) => same(v, value))) {
      const allowed = property.enum.map((item) => JSON.stringify(item)).join(", ");
      problems.push(`${name} must be one of ${allowed}`);
    }
  }
  if (unknown.length > 0) {
    const known = Object.keys(properties).join(", ");
    problems.push(
      `unknown argument${unknown.length === 1 ? "" : "s"} ${unknown.join(", ")} ` +
        `(this tool takes ${known === "" ? "no arguments" : known})`,
    );
  }
  return problems;
}
