/**
 * The provenance parts of a report and of the console: who answered each run, and the
 * report's header (date, hel build, endpoint, model, sampling parameters, machine), with a
 * loud mark when runs came from the scripted model rather than a real one.
 *
 * @module
 */
import type { RunRecord } from "../agent/record.ts";
import { escapeControlCharacters } from "../kit/mod.ts";
import type { Lab } from "./spec.ts";
import type { EvalRecord } from "./result_file.ts";

/**
 * Names in records came from the server (its model name) or the command line: shown on one
 * line, with every control and invisible character visible.
 */
export const plain = (text: string): string =>
  escapeControlCharacters(text).replace(/[\n\t]/g, " ");

/** `model at base URL`, as the server named itself (or `no answer`). */
export function answeredBy(record: RunRecord): string {
  const actual = record.model.actual === null ? "no answer" : plain(record.model.actual);
  return `${actual} at ${plain(record.model.base_url)}`;
}

/** `1 run`, `3 runs`. */
export const runCount = (n: number): string => `${n} run${n === 1 ? "" : "s"}`;

/** The hel build that made a run (its version alone in records from before builds). */
export const buildOf = (record: RunRecord): string =>
  plain(String(record.harness.build ?? record.harness.version));

/** `a` alone, or `a (2 runs), b (1 run)` when the runs differ. */
export function distinct(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  if (counts.size === 1) return [...counts.keys()][0]!;
  return `mixed: ${[...counts].map(([value, n]) => `${value} (${runCount(n)})`).join(", ")}`;
}

/** How many of the runs answered from the scripted model. */
function scriptedRuns(records: EvalRecord[]): number {
  return records.filter((record) => record.provenance?.scripted === true).length;
}

/** A title suffix and a warning line when some runs came from the scripted model. */
export function scriptedMark(records: EvalRecord[]): { title: string; warning: string } | null {
  const scripted = scriptedRuns(records);
  if (scripted === 0) return null;
  const all = scripted === records.length;
  return {
    title: all
      ? " [SCRIPTED MODEL: a pipeline check, not a measurement]"
      : " [PARTLY SCRIPTED MODEL: a pipeline check, not a measurement]",
    warning: `${all ? "All runs" : `${scripted} of ${records.length} runs`} answered by the ` +
      "scripted model (fixtures/scripted_model.ts): this checks hel's plumbing and the eval, " +
      "it measures no model; its token counts are its own estimates.",
  };
}

function machineText(record: EvalRecord): string {
  const m = record.provenance?.machine;
  if (!m) return "not recorded";
  return plain(`${m.os} ${m.os_release} ${m.arch}, ${m.cpus} CPUs, Deno ${m.deno}`);
}

/** The span of time the runs were made in. */
function when(records: EvalRecord[]): string {
  const starts = records.map((r) => r.run.started_at).sort();
  const ends = records.map((r) => r.run.ended_at).sort();
  return `${plain(starts[0] ?? "?")} to ${plain(ends[ends.length - 1] ?? "?")}`;
}

/** The report's header lines (markdown list). */
export function headerLines(lab: Lab, records: EvalRecord[], now = new Date()): string[] {
  const requested = records.map((r) => `\`${plain(r.model.requested)}\``);
  const endpoints = records.map((r) => plain(r.model.base_url));
  const actual = records.map((r) => r.model.actual === null ? "no answer" : plain(r.model.actual));
  const modelParams = Object.keys(lab.model.params).length === 0
    ? "none"
    : plain(JSON.stringify(lab.model.params));
  return [
    `- date: report written ${now.toISOString()}; runs made ${when(records)}`,
    `- hel build: ${distinct(records.map(buildOf))}`,
    `- endpoint: ${distinct(endpoints)}`,
    `- model: requested ${distinct(requested)}; answered as ${distinct(actual)}`,
    `- sampling: hel sends no temperature or top_p (the server's defaults apply); ` +
    `max output tokens ${lab.budget.max_output_tokens}, max turns ${lab.budget.max_turns}, ` +
    `timeout ${lab.budget.timeout_seconds} s; extra model parameters: ${modelParams}`,
    `- machine: ${distinct(records.map(machineText))}`,
  ];
}

/** `measured`, `estimated` or `unavailable`, or a mix, for one usage figure over runs. */
export function tokenStatus(records: RunRecord[], pick: keyof RunRecord["usage"]): string {
  const statuses = [...new Set(records.map((r) => r.usage[pick].status))].sort();
  return statuses.join(" and ") || "none";
}
