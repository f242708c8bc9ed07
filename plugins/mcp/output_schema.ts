/**
 * Checking a tool's structured results against its `outputSchema`, as the spec asks clients
 * to. hel calls `tools/call` through the SDK's plain `request`, never its `callTool` (whose
 * check needs the SDK's own `listTools` cache), so this is the only check there is. The schema
 * is compiled with ajv once per tool, at its first result: most tools are never called. Like
 * input schemas, output schemas are server text: ajv never fetches a `$ref`, schemas over
 * core's MAX_SCHEMA_CHARS are not compiled, and a throw is caught. A schema hel cannot compile
 * leaves results unchecked (the tool still works, as in other clients).
 *
 * @module
 */
import { compileForeignSchema, errorMessage, isRecord } from "../../core/mod.ts";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { OutputCheck } from "./result.ts";

/** Problems named in one error result at most. */
const SHOWN_PROBLEMS = 3;

/**
 * The check of a listed tool's `outputSchema`, compiled at its first use; undefined when the
 * tool declares none (or one that is not an object).
 */
export function outputCheck(tool: Record<string, unknown>): OutputCheck | undefined {
  const schema = tool.outputSchema;
  if (!isRecord(schema)) return undefined;
  let compiled: Promise<ValidateFunction | undefined> | undefined;
  return async (structured) => {
    compiled ??= compile(schema);
    const validate = await compiled;
    if (!validate) return undefined;
    try {
      if (validate(structured)) return undefined;
    } catch (error) {
      return [`it could not be checked (${errorMessage(error)})`];
    }
    return problems(validate.errors ?? [], structured);
  };
}

async function compile(schema: Record<string, unknown>): Promise<ValidateFunction | undefined> {
  try {
    return await compileForeignSchema(schema);
  } catch {
    return undefined;
  }
}

/** `temperature must be number (it is "hot")`, at most three, then how many more. */
function problems(errors: readonly ErrorObject[], structured: unknown): string[] {
  const shown = errors.slice(0, SHOWN_PROBLEMS).map((error) => {
    const path = error.instancePath.split("/").slice(1)
      .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
    const where = path.length === 0 ? "structuredContent" : path.join(".");
    const value = valueAt(structured, path);
    const found = error.keyword === "type" || error.keyword === "enum" || error.keyword === "const"
      ? ` (it is ${JSON.stringify(value)?.slice(0, 60) ?? "absent"})`
      : "";
    return `${where} ${error.message ?? "does not fit the schema"}${found}`;
  });
  if (errors.length > SHOWN_PROBLEMS) shown.push(`${errors.length - SHOWN_PROBLEMS} more`);
  return shown;
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let here = value;
  for (const part of path) {
    if (here === null || typeof here !== "object") return undefined;
    here = (here as Record<string, unknown>)[part];
  }
  return here;
}
