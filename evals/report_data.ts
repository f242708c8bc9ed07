/**
 * The figures of a report, gathered from the run folders of a lab. Every run is judged again
 * from its files (so `verdict.json` always matches the current checks) and every figure is
 * computed from one run file: usage from `record.json`, tool calls from its events, request
 * tool lists from `raw/requests.jsonl`, verdicts from `verdict.json`.
 *
 * @module
 */
import type { RunRecord } from "../agent/record.ts";
import { judgeRun, type Verdict } from "./checks.ts";
import { mcpStartup, readServerLog, readTimeline, type Timeline } from "./raw_log.ts";
import type { Lab, Task } from "./spec.ts";
import { type EvalRecord, writeResultJson } from "./result_file.ts";

/** One run as the report sees it. */
export interface RunView {
  runId: string;
  /** The run's folder, relative to the report, which sits beside it (e.g. `h10-…-variant-01`). */
  folder: string;
  condition: string;
  taskId: string;
  repetition: number;
  record: EvalRecord;
  verdict: Verdict;
  timeline: Timeline;
  /** Names offered in the first request, and whether they were only built-ins and the loader. */
  firstTools: string[];
  firstToolsOnlyBuiltins: boolean;
  /** First request offering an `mcp__` definition, and the request that asked for the load. */
  definitionsAppearAt: number | null;
  loadAskedAt: number | null;
  /** Methods the MCP server logged receiving (tools/call with the tool), null without a log. */
  serverMethods: string[] | null;
  /** How hel's MCP configuration and servers started (`raw/mcp.jsonl`). */
  mcpStartup: { line: string; ok: boolean }[];
}

/** Figures of one condition on one task, over its valid runs. */
export interface ConditionSummary {
  condition: string;
  taskId: string;
  runs: number;
  valid: number;
  passed: number;
  /** Check id → passes among valid runs. */
  checks: Map<string, number>;
  meanInput: number | null;
  meanOutput: number | null;
  meanCached: number | null;
  meanModelCalls: number | null;
  meanWallMs: number | null;
  /** Tool name → mean calls per valid run. */
  toolsPerRun: Map<string, number>;
  failedCalls: number;
  earlyCallRuns: number;
  /** Valid runs whose first request offered no `mcp__` definition. */
  listingOk: number;
  /** Valid runs in which some request offered a loaded definition. */
  definitionsOffered: number;
}

/** Reads, re-judges and returns every finished run of `experiment` under `<results>/<lab>/`. */
export async function loadRuns(
  resultsDir: string,
  lab: Lab,
  experiment: string,
  tasks: Map<string, Task>,
): Promise<RunView[]> {
  const labDir = `${resultsDir}/${lab.lab}`;
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(labDir)) if (entry.isDirectory) names.push(entry.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const views: RunView[] = [];
  for (const name of names.sort()) {
    const runDir = `${labDir}/${name}`;
    let record: EvalRecord;
    try {
      record = JSON.parse(await Deno.readTextFile(`${runDir}/record.json`));
    } catch {
      continue; // unfinished or foreign folder
    }
    const run = record.run as RunRecord["run"] & Record<string, unknown>;
    if (run.experiment !== experiment || typeof run.run_id !== "string") continue;
    const task = tasks.get(String(run.task_id));
    let verdict: Verdict;
    if (task) {
      verdict = await judgeRun(runDir, run.run_id, task, record);
      await writeResultJson(`${runDir}/verdict.json`, verdict);
    } else {
      verdict = JSON.parse(await Deno.readTextFile(`${runDir}/verdict.json`));
    }
    const timeline = await readTimeline(runDir);
    const conversation = timeline.requests.filter((r) => r.purpose === "conversation");
    const firstTools = conversation[0]?.toolNames ?? [];
    const appear = conversation.find((r) => r.toolNames.some((n) => n.startsWith("mcp__")));
    const load = timeline.calls.find((call) => call.name === "load_mcp_tool" && call.ok === true);
    views.push({
      runId: run.run_id,
      folder: name,
      condition: String(run.condition),
      taskId: String(run.task_id),
      repetition: Number(run.repetition),
      record,
      verdict,
      timeline,
      firstTools,
      firstToolsOnlyBuiltins: !firstTools.some((n) => n.startsWith("mcp__")),
      definitionsAppearAt: appear?.seq ?? null,
      loadAskedAt: load?.requestSeq ?? null,
      serverMethods: await serverMethods(runDir),
      mcpStartup: await mcpStartup(runDir),
    });
  }
  return views;
}

function mean(values: (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0) / known.length;
}

/** Summaries per condition and task, in the lab's condition order. */
export function summarize(lab: Lab, runs: RunView[]): ConditionSummary[] {
  const summaries: ConditionSummary[] = [];
  for (const taskId of lab.tasks) {
    for (const condition of lab.conditions) {
      const mine = runs.filter((run) => run.taskId === taskId && run.condition === condition.name);
      if (mine.length === 0) continue;
      const valid = mine.filter((run) => run.verdict.overall !== "invalid");
      const checks = new Map<string, number>();
      for (const run of valid) {
        for (const check of run.verdict.checks) {
          checks.set(check.id, (checks.get(check.id) ?? 0) + (check.result === "pass" ? 1 : 0));
        }
      }
      const tools = new Map<string, number>();
      for (const run of valid) {
        for (const event of run.record.events) {
          tools.set(event.name, (tools.get(event.name) ?? 0) + 1);
        }
      }
      for (const [name, count] of tools) tools.set(name, count / valid.length);
      const usage = (pick: (record: RunRecord) => number | null) =>
        mean(valid.map((run) => pick(run.record)));
      summaries.push({
        condition: condition.name,
        taskId,
        runs: mine.length,
        valid: valid.length,
        passed: valid.filter((run) => run.verdict.overall === "pass").length,
        checks,
        meanInput: usage((r) => r.usage.input_tokens.value),
        meanOutput: usage((r) => r.usage.output_tokens.value),
        meanCached: usage((r) => r.usage.cached_input_tokens.value),
        meanModelCalls: usage((r) => r.usage.model_calls.value),
        meanWallMs: usage((r) => r.usage.wall_time_ms.value),
        toolsPerRun: tools,
        failedCalls: valid.reduce(
          (sum, run) => sum + run.record.events.filter((e) => !e.ok).length,
          0,
        ),
        listingOk: valid.filter((run) => run.firstToolsOnlyBuiltins).length,
        definitionsOffered: valid.filter((run) => run.definitionsAppearAt !== null).length,
        earlyCallRuns: valid.filter((run) =>
          run.verdict.checks.some((check) =>
            (check.facts?.early_calls.length ?? 0) > 0
          )
        ).length,
      });
    }
  }
  return summaries;
}

async function serverMethods(runDir: string): Promise<string[] | null> {
  const path = `${runDir}/raw/mcp-server-events.jsonl`;
  try {
    await Deno.stat(path);
  } catch {
    return null;
  }
  return (await readServerLog(path)).map((exchange) =>
    exchange.method === "tools/call" ? `tools/call ${exchange.params?.name}` : exchange.method
  );
}
