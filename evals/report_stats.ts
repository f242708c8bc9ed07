/**
 * The statistics part of a report: each condition's pass rate with its 95% Wilson interval,
 * the spread (min, median, max) of tokens, model calls, tool calls and wall time over valid
 * runs, and each variant against the baseline on the same task by Fisher's exact test.
 *
 * @module
 */
import type { RunRecord } from "../agent/record.ts";
import type { ConditionSummary, RunView } from "./report_data.ts";
import { tokenStatus } from "./report_text.ts";
import { fisherExact, type Spread, spread, wilsonInterval } from "./stats.ts";

/** A variant's pass rate against the baseline's on one task. */
interface Comparison {
  taskId: string;
  condition: string;
  passed: number;
  valid: number;
  baselinePassed: number;
  baselineValid: number;
  /** Two-sided p-value of Fisher's exact test on passes and failures. */
  p: number;
}

/** Every non-baseline condition against `baseline` on the same task (both with valid runs). */
function comparisons(summaries: ConditionSummary[]): Comparison[] {
  const found: Comparison[] = [];
  for (const summary of summaries) {
    if (summary.condition === "baseline" || summary.valid === 0) continue;
    const base = summaries.find((s) => s.condition === "baseline" && s.taskId === summary.taskId);
    if (!base || base.valid === 0) continue;
    found.push({
      taskId: summary.taskId,
      condition: summary.condition,
      passed: summary.passed,
      valid: summary.valid,
      baselinePassed: base.passed,
      baselineValid: base.valid,
      p: fisherExact(
        summary.passed,
        summary.valid - summary.passed,
        base.passed,
        base.valid - base.passed,
      ),
    });
  }
  return found;
}

const percent = (x: number) => `${Math.round(x * 100)}%`;

/** `3/3 (100%, 95% CI 44–100%)`, or `0 valid runs`. */
function passRate(passed: number, valid: number): string {
  const interval = wilsonInterval(passed, valid);
  if (!interval) return "no valid runs";
  return `${passed}/${valid} (${percent(passed / valid)}, 95% CI ` +
    `${percent(interval.low)}–${percent(interval.high)})`;
}

const whole = (x: number) => Math.round(x).toLocaleString("en-US");

function spreadText(s: Spread | null, format: (x: number) => string = whole): string {
  return s === null ? "n/a" : `${format(s.min)} / ${format(s.median)} / ${format(s.max)}`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function valuesOf(runs: RunView[], pick: keyof RunRecord["usage"]): number[] {
  return runs.map((run) => run.record.usage[pick].value)
    .filter((value): value is number => value !== null);
}

function validRuns(summary: ConditionSummary, runs: RunView[]): RunView[] {
  return runs.filter((run) =>
    run.condition === summary.condition && run.taskId === summary.taskId &&
    run.verdict.overall !== "invalid"
  );
}

/** `0.100`, or `1.1e-5` where three decimals would say 0.000. */
const pValue = (p: number) => p >= 0.001 ? p.toFixed(3) : p.toExponential(1);

/** The variant's pass rate minus the baseline's, in percentage points: `+100 points`. */
function difference(c: Comparison): string {
  const points = Math.round((c.passed / c.valid - c.baselinePassed / c.baselineValid) * 100);
  return `${points > 0 ? "+" : points < 0 ? "-" : "±"}${Math.abs(points)} points`;
}

/** `+100 points, p = 0.100` in words a reader can use. */
function comparisonText(c: Comparison): string {
  return `${c.condition} vs baseline · ${c.taskId}: ${c.passed}/${c.valid} against ` +
    `${c.baselinePassed}/${c.baselineValid}, ${difference(c)}, p = ${pValue(c.p)} ` +
    "(Fisher's exact, two-sided)";
}

/** The `## Statistics` section of report.md. */
export function statsMarkdown(summaries: ConditionSummary[], runs: RunView[]): string[] {
  const rows = summaries.map((summary) => {
    const valid = validRuns(summary, runs);
    return [
      summary.condition,
      summary.taskId,
      passRate(summary.passed, summary.valid),
      `${spreadText(spread(valuesOf(valid, "input_tokens")))} (${
        tokenStatus(valid.map((r) => r.record), "input_tokens")
      })`,
      `${spreadText(spread(valuesOf(valid, "output_tokens")))} (${
        tokenStatus(valid.map((r) => r.record), "output_tokens")
      })`,
      spreadText(spread(valuesOf(valid, "model_calls"))),
      spreadText(spread(valid.map((run) => run.record.events.length))),
      spreadText(spread(valuesOf(valid, "wall_time_ms")), seconds),
    ];
  });
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const head = [
    "condition",
    "task",
    "pass rate",
    "in tok",
    "out tok",
    "model calls",
    "tool calls",
    "wall",
  ];
  const found = comparisons(summaries);
  return [
    "## Statistics",
    "",
    "Over valid runs. Pass rate with its 95% Wilson score interval; token, call and time",
    "columns as min / median / max. Token counts are `measured` only when a real server",
    "reported usage; `estimated` when it reported none (about four characters a token, from",
    "`raw/requests.jsonl`) or when the scripted model answered (its usage is its own estimate).",
    "",
    line(head),
    line(head.map(() => "---")),
    ...rows.map(line),
    "",
    ...(found.length === 0
      ? ["No variant has a baseline with valid runs on the same task to compare with."]
      : [
        "Against the baseline (the p-value is the chance of pass counts at least this far apart",
        "if both conditions passed equally often; with few runs even 3/3 against 0/3 gives",
        "p = 0.100, so small p needs more repetitions, `--reps N`):",
        "",
        ...found.map((c) => `- ${comparisonText(c)}`),
      ]),
  ];
}

/** The statistics lines of the terminal summary. */
export function statsTerminal(summaries: ConditionSummary[]): string[] {
  return [
    ...summaries.map((s) =>
      `pass rate  ${s.condition} · ${s.taskId}  ${passRate(s.passed, s.valid)}`
    ),
    ...comparisons(summaries).map(comparisonText),
  ];
}
