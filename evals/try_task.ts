/**
 * `try <task>`: one run of one task, to look at while writing a task or changing hel. It goes
 * to `results/try/<stamp>-<task>/` (never mixed with a lab's runs) and prints what happened:
 * the tool calls, the answer, each check and the usage.
 *
 * @module
 */
import type { Condition, Lab, Task } from "./spec.ts";
import { conditionNamed, type EvalContext, executeRun, runInputsOf } from "./runner.ts";

const OUTPUT_LINES = 40;

/** The condition to try: the named one, else `variant`, else the lab's first. */
export function pickCondition(lab: Lab, name: string | undefined): Condition {
  if (name !== undefined) return conditionNamed(lab, name);
  return lab.conditions.find((condition) => condition.name === "variant") ?? lab.conditions[0]!;
}

/** Runs the task once and prints the story; returns 0 when every check passed, else 1. */
export async function tryTask(
  context: EvalContext,
  lab: Lab,
  task: Task,
  conditionName: string | undefined,
): Promise<number> {
  const condition = pickCondition(lab, conditionName);
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  const runId = `try-${stamp}-${task.id}`;
  const runDir = `${context.resultsDir}/try/${stamp}-${task.id}`;
  const out = context.out;
  out(
    `task ${task.id} · condition ${condition.name} · ${context.endpoint.model} at ` +
      `${context.endpoint.baseUrl} (lab ${lab.lab})`,
  );
  out(`input ${task.instruction.split("\n").join(" / ")}`);
  const planned = { runId, task, condition, repetition: 1 };
  const { record, verdict } = await executeRun(
    context,
    lab,
    planned,
    runDir,
    await runInputsOf(context, lab, planned),
    "try",
  );
  out("tool calls");
  for (const event of record.events) {
    out(`  ${event.seq} ${event.name} ${JSON.stringify(event.args)} ${event.ok ? "ok" : "error"}`);
  }
  if (record.events.length === 0) out("  (none)");
  const lines = (record.outcome.final_output ?? "").split("\n");
  out(`output (${lines.length} lines)`);
  for (const line of lines.slice(0, OUTPUT_LINES)) out(`  ${line}`);
  if (lines.length > OUTPUT_LINES) out(`  … ${lines.length - OUTPUT_LINES} more lines`);
  if (record.outcome.termination !== "completed") {
    out(`ended ${record.outcome.termination}: ${record.outcome.error ?? ""}`);
  }
  out("checks");
  for (const check of verdict.checks) {
    const [first, ...rest] = check.detail.split("\n");
    out(`  ${check.result === "pass" ? "✓" : "✗"} ${check.id.padEnd(14)} ${first}`);
    for (const line of rest) out(`    ${line}`);
  }
  for (const reason of verdict.invalid_reasons) out(`  invalid: ${reason}`);
  const u = record.usage;
  const show = (value: number | null) => value === null ? "n/a" : String(value);
  out(`result ${verdict.overall}`);
  out(
    `usage input ${show(u.input_tokens.value)} · output ${show(u.output_tokens.value)} · ` +
      `${show(u.model_calls.value)} model calls · ${
        ((u.wall_time_ms.value ?? 0) / 1000).toFixed(1)
      } s`,
  );
  out(`saved ${runDir}`);
  return verdict.overall === "pass" ? 0 : 1;
}
