/**
 * The shared first half of reading a JSONC configuration file (`.hel/hooks.json`,
 * `.hel/mcp.json`): decode, parse with comments and trailing commas allowed, and turn syntax
 * errors into messages that name the file, line and column. Also the small pieces every
 * validator needs: an object's fields in file order and a "did you mean" hint for a typo.
 * What the fields mean, and whether validation stops at the first mistake, stays with the
 * plugin.
 *
 * @module
 */
import { errorMessage } from "../../core/errors.ts";
import { type Node, type ParseError, parseTree } from "jsonc-parser";
import { editDistance } from "../../core/text.ts";

/** A parsed file, or the messages saying why it could not be parsed. */
export type JsoncParse =
  | {
    ok: true;
    root: Node;
    /** `path:line:column` (1-based) of an offset in the file, where a message should point. */
    at: (offset: number) => string;
  }
  | { ok: false; problems: string[] };

/** How the messages for a file that cannot be parsed end. */
export interface JsoncParseOptions {
  /** The fix for an empty file, following "the file is empty; ", e.g. `write {...}`. */
  emptyFix: string;
  /** How many syntax errors to report, the first ones in the file (default 1). */
  maxSyntaxErrors?: number;
  /** The fix appended to each syntax error after "; ", if any. */
  syntaxFix?: string;
}

/** One `"name": value` pair of an object node. */
export interface JsoncProperty {
  name: string;
  /** The key node: where a message about the field name should point. */
  key: Node;
  value: Node;
}

const PARSE_PROBLEMS: Record<number, string> = {
  1: "unexpected character",
  2: "malformed number",
  3: "a field name in double quotes is expected",
  4: "a value is expected",
  5: 'a ":" is expected',
  6: 'a "," is expected',
  7: 'a closing "}" is expected',
  8: 'a closing "]" is expected',
  9: "unexpected text after the end of the JSON value",
  10: "malformed comment",
  11: "unterminated comment",
  12: "unterminated string",
  13: "unterminated number",
  14: "malformed \\u escape",
  15: "unknown escape in a string",
  16: "a control character inside a string (escape it)",
};

/** Decodes and parses the bytes of `path` (how messages name the file); never throws. */
export function parseJsoncConfig(
  bytes: Uint8Array,
  path: string,
  options: JsoncParseOptions,
): JsoncParse {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, problems: [`${path}: not valid UTF-8 text; save the file as UTF-8`] };
  }
  if (text.trim() === "") {
    return { ok: false, problems: [`${path}: the file is empty; ${options.emptyFix}`] };
  }
  const at = (offset: number) => `${path}:${position(text, offset)}`;
  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (error) {
    // Deep nesting overflows the parser's recursion.
    return { ok: false, problems: [`${path}: cannot be parsed (${errorMessage(error)})`] };
  }
  if (errors.length > 0 || root === undefined) {
    const fix = options.syntaxFix ? `; ${options.syntaxFix}` : "";
    const problems = errors.slice(0, options.maxSyntaxErrors ?? 1).map((error) =>
      `${at(error.offset)}: ${PARSE_PROBLEMS[error.error] ?? "malformed JSON"}${fix}`
    );
    return { ok: false, problems: problems.length > 0 ? problems : [`${path}: invalid JSON`] };
  }
  return { ok: true, root, at };
}

/** The `"name": value` pairs of an object node, in file order. */
export function jsoncProperties(node: Node): JsoncProperty[] {
  const pairs: JsoncProperty[] = [];
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    // Incomplete pairs exist only in trees with parse errors, which were rejected.
    if (key && value) pairs.push({ name: String(key.value), key, value });
  }
  return pairs;
}

/** ` (did you mean "x"?)` when `name` is one or two edits (ignoring case) from `known`, else "". */
export function didYouMean(name: string, known: readonly string[]): string {
  const lower = name.toLowerCase();
  const near = known.find((k) => k === lower || editDistance(k, lower) <= 2);
  return near ? ` (did you mean "${near}"?)` : "";
}

/** `line:column` (1-based) of an offset. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return `${line}:${column}`;
}
