/**
 * `--dry-run` and `list`: what a lab would run, and which recorded runs it would reuse,
 * without running anything or asking any model.
 *
 * @module
 */
import { checkPins, type EvalContext, planRuns, REUSED, runInputsOf } from "./runner.ts";
import { answeredBy } from "./report_text.ts";
import { recordedRun, reuseDecision } from "./reuse.ts";
import { type Shard, shardOf } from "./shard.ts";
import {
  type Condition,
  experimentId,
  type Lab,
  labIds,
  loadLab,
  SpecError,
  type Task,
} from "./spec.ts";

/**
 * Prints the plan of a run of `conditions` (only `shard`'s slice of it, as a run would make);
 * returns how many runs would run and be reused.
 */
export async function dryRun(
  context: EvalContext,
  lab: Lab,
  tasks: Task[],
  conditions: Condition[],
  fresh: boolean,
  shard?: Shard,
): Promise<{ toRun: number; reused: number }> {
  // The same pin check as a real run, so a dry run also says when a run would stop at once.
  await checkPins(lab, tasks, conditions);
  if (context.endpoint.apiKey === "none" && context.endpoint.baseUrl === lab.model.base_url) {
    context.out(`no DEEPSEEK_API_KEY (environment or .env): a real run of ${lab.lab} would stop`);
  }
  const runs = shardOf(planRuns(lab, tasks, conditions), shard);
  let toRun = 0, reused = 0;
  for (const [index, planned] of runs.entries()) {
    const runDir = `${context.resultsDir}/${lab.lab}/${planned.runId}`;
    const decision = await reuseDecision(runDir, await runInputsOf(context, lab, planned), fresh);
    const what = decision.reuse
      ? `${REUSED} · ${answeredBy(decision.record)}`
      : `would run (${decision.why})`;
    context.out(
      `[${index + 1}/${runs.length}] ${planned.condition.name} · ${planned.runId} · ${what}`,
    );
    if (decision.reuse) reused++;
    else toRun++;
  }
  context.out(
    `dry run: ${toRun} run(s) would be made, ${reused} reused; nothing was run and no model asked`,
  );
  return { toRun, reused };
}

/**
 * How many of a lab's planned runs have a finished record in `resultsDir`, and how many of
 * those the scripted model answered (a pipeline check a real run will not reuse).
 */
async function recordedCount(
  resultsDir: string,
  lab: Lab,
  runIds: string[],
): Promise<{ recorded: number; scripted: number }> {
  let count = 0, scripted = 0;
  for (const id of runIds) {
    const record = await recordedRun(`${resultsDir}/${lab.lab}/${id}`);
    if (record?.run?.experiment !== experimentId(lab)) continue;
    count++;
    if (record.provenance?.scripted === true) scripted++;
  }
  return { recorded: count, scripted };
}

/** One line per lab: title, conditions, tasks, repetitions, runs and how many are recorded. */
export async function listLabs(
  evalsDir: string,
  resultsDir: string,
  loadTasks: (lab: Lab) => Promise<Task[]>,
  out: (line: string) => void,
): Promise<void> {
  const ids = await labIds(evalsDir);
  if (ids.length === 0) {
    out(`no labs in ${evalsDir}/labs`);
    return;
  }
  for (const id of ids) {
    let lab: Lab, tasks: Task[];
    try {
      lab = await loadLab(evalsDir, id);
      tasks = await loadTasks(lab);
    } catch (error) {
      if (!(error instanceof SpecError)) throw error;
      out(`${id} · cannot be run: ${error.message.split("\n").join(" ")}`);
      continue;
    }
    const runs = planRuns(lab, tasks, lab.conditions);
    const { recorded, scripted } = await recordedCount(
      resultsDir,
      lab,
      runs.map((run) => run.runId),
    );
    const byScript = scripted > 0 ? ` (${scripted} by the scripted model)` : "";
    out(
      `${id} · ${lab.title} · conditions ${lab.conditions.map((c) => c.name).join(", ")} · ` +
        `tasks ${lab.tasks.join(", ")} · ${lab.repetitions} repetition${
          lab.repetitions === 1 ? "" : "s"
        } · ` +
        `${runs.length} run${
          runs.length === 1 ? "" : "s"
        }, ${recorded} recorded${byScript} · model ${lab.model.id} at ${lab.model.base_url}`,
    );
  }
}
