/**
 * Checks of a finished run, and its verdict (`verdict.json`). Each check reads files in the
 * run's folder only: the workspace, `record.json` and the raw logs.
 *
 * - `file_exact_match`: a workspace file equals the task's expected file (one trailing
 *   newline of difference is allowed on either side);
 * - `tool_calls`: exactly `count` tool calls of a category (optionally only successful or
 *   only failed ones) in the record;
 * - `mcp_usage`: the MCP rubric (see mcp_usage.ts).
 *
 * @module
 */
import type { RunRecord } from "../agent/record.ts";
import { checkMcpUsage, type McpUsageFacts } from "./mcp_usage.ts";
import type { CheckSpec, Task } from "./spec.ts";
import { RUNNER_RECORD } from "./hel_driver.ts";

/** The result of one check. */
export interface CheckResult {
  id: string;
  type: CheckSpec["type"];
  result: "pass" | "fail";
  detail: string;
  /** What the MCP rubric found, step by step (mcp_usage only). */
  facts?: McpUsageFacts;
}

/** The content of `verdict.json`. */
export interface Verdict {
  schema_version: "hel-verdict-1";
  run_id: string;
  /** `invalid` when the run says nothing about hel (see `invalid_reasons`). */
  overall: "pass" | "fail" | "invalid";
  invalid_reasons: string[];
  checks: CheckResult[];
}

/** Why a record cannot count as a measurement of hel, if it cannot. */
export function invalidReasons(record: RunRecord): string[] {
  const reasons: string[] = [];
  if (record.harness.recorded_by === RUNNER_RECORD) {
    reasons.push(`no record from hel: ${record.outcome.error}`);
  } else if (record.model.actual === null) {
    reasons.push("model unknown: no successful model response");
  } else if (record.model.actual !== record.model.requested) {
    // Another server standing in (`--base-url`) usually names its own model: say how to ask for it.
    reasons.push(
      `model mismatch: requested ${record.model.requested}, the server answered as ` +
        `${record.model.actual}; if that is the model to measure, run again with ` +
        `--model ${record.model.actual}`,
    );
  }
  return reasons;
}

/** Runs every check of `task` on the run in `runDir` and returns the verdict. */
export async function judgeRun(
  runDir: string,
  runId: string,
  task: Task,
  record: RunRecord,
): Promise<Verdict> {
  const checks: CheckResult[] = [];
  for (const spec of task.checks) {
    checks.push(await runCheck(spec, runDir, task, record));
  }
  const invalid = invalidReasons(record);
  const overall = invalid.length > 0
    ? "invalid"
    : checks.every((check) => check.result === "pass")
    ? "pass"
    : "fail";
  return {
    schema_version: "hel-verdict-1",
    run_id: runId,
    overall,
    invalid_reasons: invalid,
    checks,
  };
}

async function runCheck(
  spec: CheckSpec,
  runDir: string,
  task: Task,
  record: RunRecord,
): Promise<CheckResult> {
  switch (spec.type) {
    case "file_exact_match":
      return { id: spec.id, type: spec.type, ...await fileExactMatch(runDir, task, spec) };
    case "tool_calls":
      return { id: spec.id, type: spec.type, ...toolCalls(record, spec) };
    case "mcp_usage": {
      const { pass, detail, facts } = await checkMcpUsage(runDir, spec);
      return { id: spec.id, type: spec.type, result: pass ? "pass" : "fail", detail, facts };
    }
  }
}

type Outcome = { result: "pass" | "fail"; detail: string };

async function fileExactMatch(
  runDir: string,
  task: Task,
  spec: Extract<CheckSpec, { type: "file_exact_match" }>,
): Promise<Outcome> {
  const actualPath = `${runDir}/workspace/${spec.path}`;
  const expectedPath = `${task.dir}/${spec.expected_file}`;
  let actual: string, expected: string;
  try {
    actual = await Deno.readTextFile(actualPath);
  } catch (error) {
    return { result: "fail", detail: `cannot read ${actualPath}: ${(error as Error).message}` };
  }
  try {
    expected = await Deno.readTextFile(expectedPath);
  } catch (error) {
    return { result: "fail", detail: `cannot read ${expectedPath}: ${(error as Error).message}` };
  }
  const trim = (text: string) => text.replace(/\r?\n$/, "");
  if (trim(actual) === trim(expected)) {
    return { result: "pass", detail: `workspace/${spec.path} equals ${spec.expected_file}` };
  }
  return { result: "fail", detail: firstDifference(trim(expected), trim(actual), spec.path) };
}

function firstDifference(expected: string, actual: string, path: string): string {
  const want = expected.split(/\r?\n/), got = actual.split(/\r?\n/);
  let line = 0;
  while (line < want.length && line < got.length && want[line] === got[line]) line++;
  const show = (text: string | undefined) =>
    text === undefined ? "(no line)" : text.replaceAll(" ", "·").replaceAll("\t", "→");
  return `workspace/${path} line ${line + 1} differs (expected ${want.length} lines, got ` +
    `${got.length})\nexpected: ${show(want[line])}\nactual:   ${show(got[line])}`;
}

function toolCalls(
  record: RunRecord,
  spec: Extract<CheckSpec, { type: "tool_calls" }>,
): Outcome {
  const matching = record.events.filter((event) =>
    event.category === spec.category && (spec.ok === undefined || event.ok === spec.ok)
  );
  const what = `${spec.ok === undefined ? "" : spec.ok ? "successful " : "failed "}` +
    `${spec.category} calls`;
  const names = matching.map((event) => event.name).join(", ");
  const detail = `${matching.length} ${what} (expected ${spec.count})${names ? `: ${names}` : ""}`;
  return { result: matching.length === spec.count ? "pass" : "fail", detail };
}
