/**
 * `defineTool`: a tool's arguments declared once, as a zod object. The JSON Schema the model
 * sees is derived from it, the tool-call path checks a call against it before hooks and the
 * permission question see the call, and `run` receives the arguments typed.
 *
 * @module
 */
import { z } from "zod";
import {
  type ArgumentCheck,
  argumentPath,
  enumText,
  jsonType,
  missingText,
  typeText,
  unknownText,
  valueAt,
  withoutNulls,
} from "./argument_problems.ts";
import type { CallDescription } from "./permissions.ts";
import type { RuleTarget } from "./permission_rules.ts";
import type {
  JsonSchema,
  Tool,
  ToolCategory,
  ToolClass,
  ToolContext,
  ToolResult,
} from "./types.ts";

/** A built-in tool as its plugin declares it. */
export interface ToolSpec<Parameters extends z.ZodObject> {
  name: string;
  /** Model-facing description (kept in a `.txt` beside the tool). */
  description: string;
  /**
   * The arguments, as `z.strictObject({...})` (unknown arguments are refused) with a
   * `.describe()` per property for the model.
   */
  parameters: Parameters;
  toolClass: ToolClass;
  category: ToolCategory;
  /**
   * What the permission question shows of a call whose arguments fit `parameters`, and what
   * "don't ask again" would cover (see {@link Tool.describeCall}). Must not write anything.
   */
  describeCall?(args: z.infer<Parameters>): Promise<CallDescription>;
  /** What permission rules match for a call (see {@link Tool.ruleTarget}). Writes nothing. */
  ruleTarget?(args: z.infer<Parameters>): Promise<RuleTarget>;
  /** Runs a call whose arguments fit `parameters`; expected failures are `{ ok: false }`. */
  run(args: z.infer<Parameters>, context: ToolContext): Promise<ToolResult>;
}

/** Builds the tool: its model-facing schema, its argument check and its run. */
export function defineTool<Parameters extends z.ZodObject>(spec: ToolSpec<Parameters>): Tool {
  const schema = modelSchema(spec.parameters);
  const describe = spec.describeCall;
  const target = spec.ruleTarget;
  return {
    name: spec.name,
    description: spec.description,
    parameters: schema,
    toolClass: spec.toolClass,
    category: spec.category,
    checkArguments(args) {
      return checkWith(spec.parameters, schema, args);
    },
    // The tool-call path hands over only what checkArguments returned, to both.
    ...(describe ? { describeCall: (args) => describe(args as z.infer<Parameters>) } : {}),
    ...(target ? { ruleTarget: (args) => target(args as z.infer<Parameters>) } : {}),
    run: (args, context) => spec.run(args as z.infer<Parameters>, context),
  };
}

/** The JSON Schema of `parameters` as the model receives it. */
export function modelSchema(parameters: z.ZodObject): JsonSchema {
  const schema: JsonSchema = z.toJSONSchema(parameters, {
    io: "input",
    override({ jsonSchema }) {
      // zod bounds every integer to the safe range; the model needs no such noise.
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    },
  });
  delete schema.$schema;
  return schema;
}

/** The JSON Schema type at `path` (through properties and items), as the model was told it. */
function typeAt(schema: unknown, path: readonly PropertyKey[]): unknown {
  let node = schema as Record<string, unknown> | undefined;
  for (const part of path) {
    const next = typeof part === "number"
      ? node?.items
      : (node?.properties as Record<string, unknown> | undefined)?.[String(part)];
    node = next as Record<string, unknown> | undefined;
  }
  return node?.type;
}

function checkWith(parameters: z.ZodObject, schema: JsonSchema, args: Record<string, unknown>) {
  const given = withoutNulls(args);
  const parsed = parameters.safeParse(given);
  if (parsed.success) return { ok: true, args: parsed.data } satisfies ArgumentCheck;
  const missing: string[] = [];
  const problems: string[] = [];
  const unknown: string[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === "unrecognized_keys" && issue.path.length === 0) {
      unknown.push(...issue.keys);
      continue;
    }
    const name = argumentPath(issue.path);
    const value = valueAt(given, issue.path);
    if (issue.code === "invalid_type" && value === undefined) missing.push(missingText(name));
    else problems.push(issueText(issue, name, value, typeAt(schema, issue.path)));
  }
  if (unknown.length > 0) problems.push(unknownText(unknown, Object.keys(parameters.shape)));
  return { ok: false, problems: [...missing, ...problems] } satisfies ArgumentCheck;
}

function issueText(
  issue: z.core.$ZodIssue,
  name: string,
  value: unknown,
  wanted: unknown,
): string {
  switch (issue.code) {
    case "invalid_type":
      // zod names `int` and says `number` for a non-number; the schema's type is what the model saw.
      return typeText(name, typeof wanted === "string" ? wanted : issue.expected, value);
    case "invalid_value":
      return enumText(name, issue.values);
    case "too_small":
      if (issue.origin === "string" && Number(issue.minimum) === 1) {
        return `${name} must be a non-empty string`;
      }
      if (issue.origin === "array") return `${name} must list at least ${issue.minimum} item(s)`;
      return `${name} must be at least ${issue.minimum}, not ${
        jsonType(value) === "string" ? `${String(value).length} characters` : String(value)
      }`;
    case "too_big":
      return `${name} must be at most ${issue.maximum}`;
    default:
      return `${name}: ${issue.message}`;
  }
}
