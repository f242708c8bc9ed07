/**
 * The JSON Schema of `--output-format stream-json` and `json` (`cli/output/stream_json.schema.json`)
 * compiled with ajv, strict, every error reported; and the lines of a run's stdout, each
 * checked against it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import schema from "../cli/output/stream_json.schema.json" with { type: "json" };

const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addSchema(schema);

/** Checks one stream-json line (any event). */
export const validLine = ajv.getSchema(schema.$id)!;

/** Checks the object `--output-format json` prints (the result alone). */
export const validResult = ajv.getSchema(`${schema.$id}#/$defs/result`)!;

/** ajv's errors of the last check, readable in an assertion message. */
export function schemaErrors(check: typeof validLine): string {
  return ajv.errorsText(check.errors, { separator: "\n" });
}

/** A stream-json line as the tests read it. */
// deno-lint-ignore no-explicit-any
export type StreamLine = Record<string, any>;

/**
 * The lines of `stdout`, each a JSON object valid against the schema; fails naming the first
 * line that is not. Every line must end with a newline, including the last.
 */
export function streamLines(stdout: string): StreamLine[] {
  assert.ok(stdout.endsWith("\n"), `stdout ends mid-line: ${JSON.stringify(stdout.slice(-80))}`);
  return stdout.slice(0, -1).split("\n").map((text, index) => {
    const line = JSON.parse(text);
    assert.ok(validLine(line), `line ${index + 1} ${text}\n${schemaErrors(validLine)}`);
    return line;
  });
}

/** The lines of one `type` (and `subtype`), in order. */
export function linesOf(lines: StreamLine[], type: string, subtype?: string): StreamLine[] {
  return lines.filter((line) =>
    line.type === type && (subtype === undefined || line.subtype === subtype)
  );
}
