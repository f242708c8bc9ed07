/**
 * Checks a call's arguments against a tool's own JSON Schema (MCP tools, or a plugin's tool
 * not made with `defineTool`) with ajv, so a call that cannot run is answered before hooks,
 * the approval question or a server see it.
 *
 * Schemas come from MCP servers and may be hostile: ajv never fetches (no `loadSchema`, so a
 * remote `$ref` is a compile error), schemas over {@link MAX_SCHEMA_CHARS} are not compiled,
 * and a compile or validation that throws (a stack overflow on a deep schema) is caught. A
 * schema that cannot be compiled is reported by {@link compileSchemaCheck}; the MCP plugin
 * excludes such tools with a warning.
 *
 * ajv is loaded on the first check: most runs check no foreign schema, and loading it costs
 * every start a few hundredths of a second of CPU.
 *
 * @module
 */
import { errorMessage } from "./errors.ts";
import { loadLinearRegExp } from "./linear_regexp.ts";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import {
  type ArgumentCheck,
  argumentPath,
  enumText,
  missingText,
  typeText,
  unknownText,
  valueAt,
  withoutNulls,
} from "./argument_problems.ts";
import type { JsonSchema } from "./types.ts";
import { shapeProblem } from "./schema_shape.ts";
import { isRecord } from "./is_record.ts";

/** Schemas longer than this as JSON are not compiled (nor worth sending to a model). */
export const MAX_SCHEMA_CHARS = 200_000;

/** Checks decoded arguments against one compiled schema. */
export type SchemaCheck = (args: Record<string, unknown>) => ArgumentCheck;

// strict false: servers use keywords and formats ajv does not know; they are ignored.
// addUsedSchema false: an `$id` two servers share must not clash inside one instance.
// inlineRefs false: a definition behind many `$ref`s is compiled once, not copied into each
// (inlining made one 15 KB schema take seconds and a gigabyte to compile).
// code.regExp (added where each instance is made, once re2js is loaded): patterns are matched
// in linear time (a server's pattern could hang hel).
const OPTIONS = {
  strict: false,
  allErrors: true,
  logger: false,
  addUsedSchema: false,
  inlineRefs: false,
} as const;
let draft7: Promise<Ajv> | undefined;
let draft2020: Promise<Ajv2020> | undefined;

/**
 * The ajv instance for `schema`'s dialect (draft 2019-09/2020-12, else draft-07), loaded with
 * its pattern engine the first time: hel's one validator of foreign JSON Schemas (MCP tools'
 * input and output schemas).
 */
export function schemaValidator(schema: JsonSchema): Promise<Ajv | Ajv2020> {
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  if (/2019-09|2020-12/.test(dialect)) {
    return draft2020 ??= Promise.all([import("ajv/dist/2020.js"), loadLinearRegExp()])
      .then(([{ Ajv2020 }, regExp]) => new Ajv2020({ ...OPTIONS, code: { regExp } }));
  }
  return draft7 ??= Promise.all([import("ajv"), loadLinearRegExp()])
    .then(([{ Ajv }, regExp]) => new Ajv({ ...OPTIONS, code: { regExp } }));
}

/**
 * `schema` compiled as hel checks every foreign schema: bounded in size, by its dialect's
 * validator, `$schema` left out (ajv would otherwise look the meta-schema up by URL). Throws
 * why it cannot be compiled.
 */
export async function compileForeignSchema(schema: JsonSchema): Promise<ValidateFunction> {
  const tooLarge = sizeProblem(schema);
  if (tooLarge !== undefined) throw new Error(tooLarge);
  return (await schemaValidator(schema)).compile(withoutDialect(schema));
}

/** The check for `schema`, or why it cannot be checked. Never rejects. */
export async function compileSchemaCheck(
  schema: JsonSchema,
): Promise<SchemaCheck | { error: string }> {
  const tooLarge = sizeProblem(schema);
  if (tooLarge !== undefined) return { error: tooLarge };
  let validate: ValidateFunction;
  try {
    validate = await compileForeignSchema(schema);
  } catch (error) {
    return { error: `its inputSchema cannot be checked: ${errorMessage(error)}` };
  }
  return checkWith(validate, schema);
}

/** A schema's check, compiled when first needed. */
export interface DeferredSchemaCheck {
  /** Compiles the schema now (once); why it cannot be checked, or undefined when it can. */
  compile(): string | undefined;
  /**
   * Checks arguments, compiling first; a schema that does not compile refuses every call
   * (`unusable`), since unchecked arguments would reach hooks, approval and the server.
   */
  check: SchemaCheck;
}

/**
 * Like {@link compileSchemaCheck}, but only the cheap part now (size, the meta-schema, `$ref`s
 * that cannot resolve: schema_shape.ts) and the compile at the first {@link
 * DeferredSchemaCheck.compile} or check: most listed tools are never loaded or called, and
 * compiling them all made start-up grow with the catalog. Never rejects.
 */
export async function deferSchemaCheck(
  schema: JsonSchema,
): Promise<DeferredSchemaCheck | { error: string }> {
  const tooLarge = sizeProblem(schema);
  if (tooLarge !== undefined) return { error: tooLarge };
  let validator: Ajv | Ajv2020;
  const rest = withoutDialect(schema);
  try {
    validator = await schemaValidator(schema);
  } catch (error) {
    return { error: `its inputSchema cannot be checked: ${errorMessage(error)}` };
  }
  const problem = shapeProblem(validator, rest);
  if (problem !== undefined) return { error: `its inputSchema cannot be checked: ${problem}` };
  let made: SchemaCheck | string | undefined;
  const compile = (): SchemaCheck | string => {
    if (made !== undefined) return made;
    try {
      made = checkWith(validator.compile(rest), schema);
    } catch (error) {
      made = `its inputSchema cannot be checked: ${errorMessage(error)}`;
    }
    return made;
  };
  return {
    compile: () => {
      const result = compile();
      return typeof result === "string" ? result : undefined;
    },
    check: (args) => {
      const result = compile();
      if (typeof result === "function") return result(args);
      return { ok: false, problems: [result], unusable: true };
    },
  };
}

function sizeProblem(schema: JsonSchema): string | undefined {
  let size: number;
  try {
    size = JSON.stringify(schema).length;
  } catch (error) {
    return `its inputSchema cannot be checked: ${errorMessage(error)}`;
  }
  return size > MAX_SCHEMA_CHARS
    ? `its inputSchema is ${size} characters, over the ${MAX_SCHEMA_CHARS} hel checks`
    : undefined;
}

function withoutDialect(schema: JsonSchema): Record<string, unknown> {
  const { $schema: _, ...rest } = schema;
  return rest;
}

function checkWith(validate: ValidateFunction, schema: JsonSchema): SchemaCheck {
  const known = Object.keys(isRecord(schema.properties) ? schema.properties : {});
  return (args) => {
    const given = withoutNulls(args);
    try {
      if (validate(given)) return { ok: true, args };
    } catch (error) {
      return {
        ok: false,
        problems: [`the arguments could not be checked (${errorMessage(error)})`],
      };
    }
    return { ok: false, problems: problemsOf(validate.errors ?? [], given, known) };
  };
}

const compiled = new WeakMap<JsonSchema, Promise<SchemaCheck | undefined>>();

/**
 * The check for a tool's `parameters`, compiled once per schema object; undefined when the
 * schema cannot be compiled (the tool then checks its own arguments, as the contract says).
 */
export function schemaCheckFor(schema: JsonSchema): Promise<SchemaCheck | undefined> {
  let check = compiled.get(schema);
  if (!check) {
    check = compileSchemaCheck(schema).then((made) =>
      typeof made === "function" ? made : undefined
    );
    compiled.set(schema, check);
  }
  return check;
}

function problemsOf(errors: ErrorObject[], args: unknown, known: string[]): string[] {
  const missing: string[] = [];
  const problems: string[] = [];
  const unknown: string[] = [];
  for (const error of errors) {
    const path = error.instancePath.split("/").slice(1).map((part) =>
      /^\d+$/.test(part) ? Number(part) : part.replaceAll("~1", "/").replaceAll("~0", "~")
    );
    const params = error.params as Record<string, unknown>;
    if (error.keyword === "required") {
      missing.push(missingText(argumentPath([...path, String(params.missingProperty)])));
    } else if (error.keyword === "additionalProperties" && path.length === 0) {
      unknown.push(String(params.additionalProperty));
    } else if (error.keyword === "type") {
      problems.push(typeText(argumentPath(path), params.type, valueAt(args, path)));
    } else if (error.keyword === "enum") {
      problems.push(enumText(argumentPath(path), params.allowedValues as unknown[]));
    } else {
      problems.push(`${argumentPath(path)} ${error.message ?? "does not fit the schema"}`);
    }
  }
  if (unknown.length > 0) problems.push(unknownText(unknown, known));
  return [...missing, ...problems];
}
