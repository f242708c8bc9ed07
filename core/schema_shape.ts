/**
 * The cheap look at a foreign JSON Schema that stands in for compiling it when a tool is
 * listed: compiling with ajv costs about a millisecond a schema (more as an instance fills), so
 * a catalog of 10,000 MCP tools took seconds to start, while validating the schema against its
 * meta-schema and walking it for `$ref`s costs some tens of microseconds. What this finds would
 * also make compiling fail, with the same words; what it cannot tell (anchors, references into
 * a nested `$id`) is left to the compile when the tool is loaded or called.
 *
 * @module
 */
import { errorMessage } from "./errors.ts";
import type { Ajv } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";

/** Objects deeper than this are not walked for `$ref`s (the compile decides about them). */
const MAX_WALK_DEPTH = 200;

/**
 * Why `schema` (without `$schema`) surely cannot be compiled by `validator`, in ajv's own
 * words behind "its inputSchema cannot be checked: "; undefined when it may well compile.
 */
export function shapeProblem(
  validator: Ajv | Ajv2020,
  schema: Record<string, unknown>,
): string | undefined {
  try {
    if (!validator.validateSchema(schema)) {
      return `schema is invalid: ${validator.errorsText(validator.errors)}`;
    }
  } catch (error) {
    // A meta-schema check that overflows the stack: the compile would too.
    return errorMessage(error);
  }
  const unresolved = unresolvedReference(schema);
  return unresolved === undefined ? undefined : `can't resolve reference ${unresolved} from id #`;
}

/**
 * The first `$ref` that cannot resolve inside a schema without any `$id`: hel's validators
 * never fetch, so a reference to another document, or a `#/` pointer to nothing, fails. With an
 * `$id` somewhere, references are relative to it and only the compile can tell.
 */
function unresolvedReference(root: Record<string, unknown>): string | undefined {
  const references: string[] = [];
  let hasId = false;
  const walk = (value: unknown, depth: number): void => {
    if (depth > MAX_WALK_DEPTH || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
      return;
    }
    for (const [key, item] of Object.entries(value)) {
      if (key === "$id" && typeof item === "string") hasId = true;
      else if (key === "$ref" && typeof item === "string") references.push(item);
      // Values of these are data, not schemas: a "$ref" inside them is no reference.
      if (key !== "enum" && key !== "const" && key !== "default" && key !== "examples") {
        walk(item, depth + 1);
      }
    }
  };
  walk(root, 0);
  if (hasId) return undefined;
  return references.find((reference) => {
    if (reference === "#") return false;
    // Anchors ("#name") and the validators' own meta-schemas are the compile's to judge.
    if (reference.startsWith("#") && !reference.startsWith("#/")) return false;
    if (/^https?:\/\/json-schema\.org\//.test(reference)) return false;
    return !reference.startsWith("#/") || pointerTarget(root, reference) === undefined;
  });
}

/** What a `#/a/b` pointer names inside `root`, or undefined. */
function pointerTarget(root: unknown, pointer: string): unknown {
  let here = root;
  for (const raw of pointer.slice(2).split("/")) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (here === null || typeof here !== "object" || !Object.hasOwn(here, part)) return undefined;
    here = (here as Record<string, unknown>)[part];
  }
  return here;
}
