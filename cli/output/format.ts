/**
 * `--output-format`: what a one-shot run writes to stdout. `text` is the answer alone; `json`
 * one result object at the end; `stream-json` one event per line as the run goes, the result
 * last. The two JSON forms follow Claude Code's field names where the concepts match; their
 * schema is `stream_json.schema.json` beside this file.
 *
 * @module
 */
import { UsageError } from "../../core/usage_error.ts";
import { OUTPUT_FORMATS } from "../../agent/settings/schema.ts";

/** The output formats, in the order the help text lists them (one list for flag and setting). */
export { OUTPUT_FORMATS };

/** One of {@link OUTPUT_FORMATS}. */
export type OutputFormat = typeof OUTPUT_FORMATS[number];

/** A format other than `text`: stdout carries JSON only. */
export type MachineFormat = Exclude<OutputFormat, "text">;

/**
 * Refuses what a machine-readable format cannot serve: the chat (there is no one result to
 * report), and `--raw-output` (JSON carries the answer's bytes escaped, losslessly, already).
 */
export function checkOutputFormat(
  format: OutputFormat,
  oneShot: boolean,
  rawOutput: boolean,
): void {
  if (format === "text") return;
  if (!oneShot) {
    throw new UsageError(
      `--output-format ${format} applies to a one-shot run: give the instruction as words, ` +
        "with --instruction, or on stdin (the chat writes text only)",
    );
  }
  if (rawOutput) {
    throw new UsageError(
      `--raw-output applies to --output-format text: with ${format} the answer is a JSON ` +
        "string, every byte of it kept (escaped); leave out --raw-output",
    );
  }
}
