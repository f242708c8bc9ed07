/**
 * `run`: every run of a lab, repetitions and conditions interleaved (for each task, for each
 * repetition, each condition), so drift in the model service spreads over all conditions.
 * A run already recorded with the same inputs (reuse.ts) is skipped unless `--fresh`; with
 * `--parallel` several runs go at once, with `--shard` only a slice of them. Each run leaves
 * its whole story in `results/<lab>/<run_id>/`: `run.json`, `record.json`, `verdict.json`,
 * `workspace/`, `raw/`.
 *
 * @module
 */
import type { RunRecord } from "../agent/record.ts";
import { judgeRun, type Verdict } from "./checks.ts";
import type { Endpoint } from "./endpoint.ts";
import { runHelOnce } from "./hel_driver.ts";
import { mcpStartup, readJsonLines } from "./raw_log.ts";
import { fixtureLayers, mcpConfigLayer } from "./overlay.ts";
import { runPool } from "./parallel.ts";
import { type Shard, shardOf } from "./shard.ts";
import { type Condition, experimentId, type Lab, SpecError, type Task } from "./spec.ts";
import { checkPin, copyTree, pinMcpTrust, resetDir } from "./workspace.ts";
import { provenance, type RunInputs, runInputs } from "./provenance.ts";
import { type EvalRecord, readPlainFile, writeResultFile, writeResultJson } from "./result_file.ts";
import { answeredBy } from "./report_text.ts";
import { reuseDecision } from "./reuse.ts";
import { labelTokens } from "./tokens.ts";

/** What every command shares. */
export interface EvalContext {
  repoRoot: string;
  evalsDir: string;
  resultsDir: string;
  endpoint: Endpoint;
  /** hel's build: version and commit of the harness code (`-dirty.<hash>` with local changes). */
  build: string;
  /**
   * The base URL hel is given when it differs from the endpoint's: the rate-limit proxy's
   * (rate_limit.ts). Records still name the endpoint itself.
   */
  helBaseUrl?: string;
  /** Progress output (stdout). */
  out(line: string): void;
}

/** One planned run. */
export interface PlannedRun {
  runId: string;
  task: Task;
  condition: Condition;
  repetition: number;
}

/** A finished run. */
export interface RunOutcome {
  record: RunRecord;
  verdict: Verdict;
}

/** Identity fields the runner adds to hel's record (`record.run`). */
export interface RunIdentity {
  run_id: string;
  experiment: string;
  lab: string;
  task_id: string;
  condition: string;
  repetition: number;
}

/** The conditions named by `--conditions` (all when none are named). */
export function selectConditions(lab: Lab, names: string[] | undefined): Condition[] {
  if (!names || names.length === 0) return lab.conditions;
  return names.map((name) => conditionNamed(lab, name));
}

/** The lab's condition called `name`; a SpecError listing the conditions when there is none. */
export function conditionNamed(lab: Lab, name: string): Condition {
  const found = lab.conditions.find((condition) => condition.name === name);
  if (!found) {
    throw new SpecError(
      `lab ${lab.lab} has no condition named "${name}" (conditions: ` +
        `${lab.conditions.map((c) => c.name).join(", ")})`,
    );
  }
  return found;
}

/** Runs in execution order: task → repetition → condition. */
export function planRuns(lab: Lab, tasks: Task[], conditions: Condition[]): PlannedRun[] {
  const experiment = experimentId(lab);
  const runs: PlannedRun[] = [];
  for (const task of tasks) {
    for (let repetition = 1; repetition <= lab.repetitions; repetition++) {
      for (const condition of conditions) {
        const nn = String(repetition).padStart(2, "0");
        runs.push({
          runId: `${experiment}-${task.id}-${condition.name}-${nn}`,
          task,
          condition,
          repetition,
        });
      }
    }
  }
  return runs;
}

/**
 * Checks every pin against the `.hel/mcp.json` each condition's runs get (the overlay's when
 * it has one) before the first run: a mismatch stops everything before any model call.
 */
export async function checkPins(lab: Lab, tasks: Task[], conditions: Condition[]): Promise<void> {
  for (const task of tasks) {
    for (const condition of conditions) {
      const pin = condition.settings.mcp_sha256;
      const where = `lab ${lab.lab}, condition ${condition.name}`;
      if (pin) await checkPin(await mcpConfigLayer(task, condition), pin, where);
    }
  }
}

/** How the plan is scheduled: runs at a time, and which slice of the plan (`--shard`). */
export interface Schedule {
  parallel?: number;
  shard?: Shard;
}

/** Runs the plan (or its shard); returns how many runs ran and how many were skipped. */
export async function runLab(
  context: EvalContext,
  lab: Lab,
  tasks: Task[],
  conditions: Condition[],
  fresh: boolean,
  schedule: Schedule = {},
): Promise<{ ran: number; skipped: number }> {
  await checkPins(lab, tasks, conditions);
  const runs = shardOf(planRuns(lab, tasks, conditions), schedule.shard);
  const labDir = `${context.resultsDir}/${lab.lab}`;
  const started = performance.now();
  const elapsed = () => seconds(performance.now() - started);
  let ran = 0, skipped = 0;
  // Each run has its own folder, workspace and HEL_HOME, so runs only share the model API.
  await runPool(runs, schedule.parallel ?? 1, async (planned, index) => {
    const runDir = `${labDir}/${planned.runId}`;
    const line = (text: string) =>
      context.out(
        `[${index + 1}/${runs.length}] ${planned.condition.name} · ${planned.runId} · ${text}`,
      );
    // Reused only when endpoint, model, parameters, hel, task, lab and settings are the same.
    // The inputs hash the whole task folder: computed once, for the decision and the record.
    const inputs = await runInputsOf(context, lab, planned);
    const decision = await reuseDecision(runDir, inputs, fresh, context.endpoint.scripted);
    if (decision.reuse) {
      skipped++;
      line(`${REUSED} · ${answeredBy(decision.record)}`);
      return;
    }
    line(`${decision.why} · started at ${elapsed()} elapsed`);
    const { record, verdict } = await executeRun(context, lab, planned, runDir, inputs);
    ran++;
    // A server that never started makes the run measure the machine, not hel: say so at once.
    for (const problem of (await mcpStartup(runDir)).filter((found) => !found.ok)) {
      line(`MCP ${problem.line}`);
    }
    line(
      `${verdict.overall} · ${record.outcome.termination} · ${answeredBy(record)} · ` +
        `${record.events.length} tool calls · ` +
        `${seconds(record.usage.wall_time_ms.value ?? 0)} · ${elapsed()} elapsed`,
    );
  });
  return { ran, skipped };
}

/** How a reused run is reported on the console. */
export const REUSED = "skipped (recorded with the same inputs; --fresh runs it again)";

/** The inputs of a planned run, which decide its reuse (see provenance.ts). */
export function runInputsOf(context: EvalContext, lab: Lab, planned: PlannedRun) {
  return runInputs(lab, planned.task, planned.condition, context.endpoint, context.build);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Performs one run into `runDir` (emptied first) and judges it; `inputs` are its run inputs. */
export async function executeRun(
  context: EvalContext,
  lab: Lab,
  planned: PlannedRun,
  runDir: string,
  inputs: RunInputs,
  experiment = experimentId(lab),
): Promise<RunOutcome> {
  const { task, condition } = planned;
  const workspace = `${runDir}/workspace`;
  const helHome = `${runDir}/hel-home`;
  const rawDir = `${runDir}/raw`;
  await resetDir(runDir);
  for (const layer of await fixtureLayers(task, condition)) await copyTree(layer, workspace);
  // A server log left in the fixture (someone ran its server by hand) would pass for this
  // run's evidence; each run's log must start empty.
  for (const check of task.checks) {
    if (check.type === "mcp_usage") {
      await Deno.remove(`${workspace}/${check.server_log}`).catch(() => {});
    }
  }
  await Deno.mkdir(helHome, { recursive: true });
  const where = `lab ${lab.lab}, condition ${condition.name}, task ${task.id}`;
  if (condition.settings.mcp_sha256) {
    await pinMcpTrust(workspace, helHome, rawDir, condition.settings.mcp_sha256, where);
  }
  const identity: RunIdentity = {
    run_id: planned.runId,
    experiment,
    lab: lab.lab,
    task_id: task.id,
    condition: condition.name,
    repetition: planned.repetition,
  };
  const runInfo = {
    ...identity,
    settings: condition.settings,
    budget: lab.budget,
    endpoint: {
      provider: context.endpoint.overridden ? "override" : lab.model.provider,
      base_url: context.endpoint.baseUrl,
      model: context.endpoint.model,
      overridden: context.endpoint.overridden,
    },
    build: context.build,
    provenance: await provenance(inputs, context.endpoint),
    ...(context.helBaseUrl === undefined ? {} : { via_rate_limit_proxy: context.helBaseUrl }),
  };
  await writeResultJson(`${runDir}/run.json`, runInfo);

  const result = await runHelOnce({
    repoRoot: context.repoRoot,
    runDir,
    workspace,
    helHome,
    instruction: task.instruction,
    settings: condition.settings,
    budget: lab.budget,
    endpoint: context.helBaseUrl === undefined
      ? context.endpoint
      : { ...context.endpoint, baseUrl: context.helBaseUrl },
  });
  await writeResultJson(`${runDir}/run.json`, { ...runInfo, hel_args: result.args });
  await keepServerLogs(task, workspace, rawDir);

  const record: EvalRecord = {
    ...result.record,
    run: { ...identity, ...result.record.run },
    harness: { ...result.record.harness, build: context.build },
    usage: await labelTokens(result.record, runDir, context.endpoint.scripted),
    provenance: runInfo.provenance,
  };
  // Through the rate-limit proxy hel saw a local URL; its requests went to the endpoint.
  if (context.helBaseUrl !== undefined) record.model.base_url = context.endpoint.baseUrl;
  const verdict = await judgeRun(runDir, planned.runId, task, record);
  await writeResultJson(`${runDir}/verdict.json`, verdict);
  // record.json goes last: a run counts as finished only once everything else is on disk.
  await writeResultJson(`${runDir}/record.json`, record);
  return { record, verdict };
}

/** Copies the MCP server's message log into raw/ and pulls its stderr out of hel's MCP trace. */
async function keepServerLogs(task: Task, workspace: string, rawDir: string) {
  for (const check of task.checks) {
    if (check.type !== "mcp_usage") continue;
    try {
      const log = await readPlainFile(`${workspace}/${check.server_log}`);
      await writeResultFile(`${rawDir}/mcp-server-events.jsonl`, log);
    } catch { /* the server never started (e.g. baseline): no log to keep */ }
  }
  const lines: string[] = [];
  // The MCP plugin traces each server's stderr tail as {event: "stderr", server, text}.
  for (const entry of await readJsonLines(`${rawDir}/mcp.jsonl`) as Record<string, unknown>[]) {
    if (entry?.event !== "stderr" || typeof entry.text !== "string") continue;
    for (const line of entry.text.trimEnd().split("\n")) lines.push(`[${entry.server}] ${line}`);
  }
  if (lines.length > 0) {
    await writeResultFile(`${rawDir}/mcp-server-stderr.txt`, lines.join("\n") + "\n");
  }
}
