/**
 * `report`: a comparison of a lab's conditions, as a terminal table and as
 * `results/<lab>/report.md`. The report lists each run's own figures next to the means, and
 * says which file of the run folder each figure comes from, so every number can be checked.
 *
 * @module
 */
import { mainArgument } from "./raw_log.ts";
import { writeResultFile } from "./result_file.ts";
import { type ConditionSummary, loadRuns, type RunView, summarize } from "./report_data.ts";
import { statsMarkdown, statsTerminal } from "./report_stats.ts";
import {
  answeredBy,
  buildOf,
  distinct,
  headerLines,
  plain,
  runCount,
  scriptedMark,
  tokenStatus,
} from "./report_text.ts";
import { experimentId, type Lab, type Task } from "./spec.ts";

/** Writes the report and returns the terminal text; null when the lab has no runs yet. */
export async function writeReport(
  resultsDir: string,
  lab: Lab,
  tasks: Task[],
): Promise<{ terminal: string; path: string } | null> {
  const experiment = experimentId(lab);
  const runs = await loadRuns(resultsDir, lab, experiment, new Map(tasks.map((t) => [t.id, t])));
  if (runs.length === 0) return null;
  const summaries = summarize(lab, runs);
  const path = `${resultsDir}/${lab.lab}/report.md`;
  await writeResultFile(path, markdown(lab, experiment, runs, summaries, tasks), resultsDir);
  return { terminal: terminalTable(experiment, runs, summaries, tasks, path), path };
}

const number = (value: number | null, digits = 0) =>
  value === null ? "n/a" : value.toLocaleString("en-US", {
    maximumFractionDigits: digits,
    minimumFractionDigits: digits,
  });

/** Wall time as people read it: milliseconds under a second, seconds above. */
const duration = (ms: number) => ms < 1000 ? `${number(ms)} ms` : `${number(ms / 1000, 1)} s`;

function checkIds(tasks: Task[]): string[] {
  return [...new Set(tasks.flatMap((task) => task.checks.map((check) => check.id)))];
}

function toolsText(summary: ConditionSummary): string {
  const parts = [...summary.toolsPerRun].sort((a, b) => b[1] - a[1]).map(([name, n]) =>
    `${plain(name)} ${number(n, 1)}`
  );
  return parts.length === 0 ? "none" : parts.join(" · ");
}

function row(summary: ConditionSummary, ids: string[]): string[] {
  return [
    summary.condition,
    summary.taskId,
    `${summary.passed}/${summary.valid}`,
    ...ids.map((id) =>
      summary.checks.has(id) ? `${summary.checks.get(id)}/${summary.valid}` : "n/a"
    ),
    number(summary.meanInput),
    number(summary.meanOutput),
    number(summary.meanCached),
    number(summary.meanModelCalls, 1),
    number(summary.failedCalls),
    summary.meanWallMs === null ? "n/a" : duration(summary.meanWallMs),
  ];
}

function headers(ids: string[]): string[] {
  return [
    "condition",
    "task",
    "pass",
    ...ids,
    "in tok",
    "out tok",
    "cached",
    "model calls",
    "failed calls",
    "wall",
  ];
}

/** The hel build(s) the runs measured; several when runs were kept across a change of hel. */
function builds(runs: RunView[]): string {
  return distinct(runs.map((run) => buildOf(run.record)));
}

function validity(runs: RunView[]): string {
  const invalid = runs.filter((run) => run.verdict.overall === "invalid").length;
  return invalid === 0 ? "all valid" : `${invalid} invalid`;
}

function terminalTable(
  experiment: string,
  runs: RunView[],
  summaries: ConditionSummary[],
  tasks: Task[],
  path: string,
): string {
  const ids = checkIds(tasks);
  const table = [headers(ids), ...summaries.map((summary) => row(summary, ids))];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((r) => r[column]!.length)));
  const lines = table.map((r) =>
    r.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd()
  );
  const tools = summaries.map((s) =>
    `tools per run  ${s.condition.padEnd(widths[0]!)}  ${toolsText(s)}`
  );
  const scripted = scriptedMark(runs.map((run) => run.record));
  return [
    `${experiment}${scripted?.title ?? ""} · ${runCount(runs.length)} · ${validity(runs)} · ` +
    `hel ${builds(runs)}`,
    ...lines,
    ...tools,
    ...statsTerminal(summaries),
    ...(scripted ? [scripted.warning] : []),
    `report  ${path}`,
  ].join("\n") + "\n";
}

function mdTable(rows: string[][]): string {
  const [head, ...body] = rows;
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(head!), line(head!.map(() => "---")), ...body.map(line)].join("\n");
}

function runSection(run: RunView): string {
  const { record, verdict } = run;
  const u = record.usage;
  const calls = run.record.events.map((event) => {
    const arg = mainArgument(event.args);
    return `${event.seq}. \`${plain(event.name)}\`${arg ? ` \`${plain(arg)}\`` : ""}${
      event.ok ? "" : " — failed"
    }`;
  });
  const appear = run.definitionsAppearAt === null ? "never" : `request ${run.definitionsAppearAt}` +
    (run.loadAskedAt === null
      ? ""
      : ` (load_mcp_tool asked in the answer to request ${run.loadAskedAt})`);
  const lines = [
    `### ${run.runId}`,
    "",
    `- **${verdict.overall}** · ${record.outcome.termination}` +
    (record.outcome.error ? ` · ${plain(record.outcome.error.split("\n")[0]!)}` : "") +
    ` · folder \`${run.folder}/\``,
    `- answered by: ${answeredBy(record)} (requested \`${plain(record.model.requested)}\`)`,
    `- usage: input ${number(u.input_tokens.value)} · output ${number(u.output_tokens.value)} · ` +
    `cached ${number(u.cached_input_tokens.value)} · ${
      number(u.model_calls.value)
    } model calls · ` +
    `${u.wall_time_ms.value === null ? "n/a" : duration(u.wall_time_ms.value)} · tokens ` +
    tokenStatus([record], "input_tokens"),
    `- first request's tools: ${run.firstTools.map((n) => `\`${n}\``).join(", ") || "none"} — ` +
    (run.firstToolsOnlyBuiltins
      ? `only built-ins${run.firstTools.includes("load_mcp_tool") ? " and load_mcp_tool" : ""}`
      : "MCP definitions included"),
    `- loaded MCP definitions first offered: ${appear}`,
    ...(run.mcpStartup.length === 0
      ? []
      : [`- MCP start: ${run.mcpStartup.map((s) => s.line).join(" · ")}`]),
    `- MCP server received: ${
      run.serverMethods === null
        ? "nothing (no server log)"
        : run.serverMethods.join(", ") || "nothing"
    }`,
    `- tool calls (${calls.length}):${calls.length === 0 ? " none" : ""}`,
    ...calls.map((call) => `  ${call}`),
  ];
  for (const check of verdict.checks) {
    const mark = check.result === "pass" ? "pass" : "FAIL";
    lines.push(`- check \`${check.id}\` ${mark}: ${plain(check.detail.split("\n").join(" / "))}`);
    if (check.facts && check.facts.early_calls.length > 0) {
      lines.push(
        `  - early call(s) ${check.facts.early_calls.map((n) => `#${n}`).join(", ")} before ` +
          `loading; ${
            check.facts.recovered_after_notice ? "recovered" : "not recovered"
          } after the notice`,
      );
    }
  }
  for (const reason of verdict.invalid_reasons) lines.push(`- invalid: ${reason}`);
  return lines.join("\n");
}

function markdown(
  lab: Lab,
  experiment: string,
  runs: RunView[],
  summaries: ConditionSummary[],
  tasks: Task[],
): string {
  const ids = checkIds(tasks);
  const first = runs[0]!.record;
  // `--model` overrides as well as `--base-url` do.
  const overridden = runs.some((run) =>
    run.record.model.base_url !== lab.model.base_url || run.record.model.requested !== lab.model.id
  );
  const scripted = scriptedMark(runs.map((run) => run.record));
  const parts = [
    `# Report — ${experiment}${scripted?.title ?? ""}: ${lab.title}`,
    "",
    ...(scripted ? [`**${scripted.warning}**`, ""] : []),
    ...headerLines(lab, runs.map((run) => run.record)),
    "",
    // Endpoint and hel build are in the header list above.
    `Lab \`${lab.lab}\` · model \`${plain(first.model.requested)}\`` +
    (overridden ? " (model or endpoint overridden on the command line)" : "") +
    ` · ${new Set(runs.map((run) => run.repetition)).size} repetitions · ` +
    `${runCount(runs.length)} · ${validity(runs)}`,
    "",
    "## Rubric",
    "",
    ...Object.entries(lab.rubric).map(([id, text]) => `- **${id}**: ${text}`),
    "",
    "## Summary",
    "",
    mdTable([headers(ids), ...summaries.map((summary) => row(summary, ids))]),
    "",
    "Tool calls per run (mean over valid runs):",
    "",
    ...summaries.map((s) => `- ${s.condition} · ${s.taskId}: ${toolsText(s)}`),
    "",
    "Tool lists and MCP use (valid runs):",
    "",
    ...summaries.map((s) =>
      `- ${s.condition} · ${s.taskId}: first request without MCP definitions in ` +
      `${s.listingOk}/${s.valid}; loaded definitions offered in ${s.definitionsOffered}/${s.valid}` +
      `; ${s.earlyCallRuns} run(s) called an MCP tool before loading it`
    ),
    "",
    "Pass is `pass/valid`; a check column is passes among valid runs. Token, call and time",
    "columns are means over valid runs with a value (n/a when none; measured or estimated, see",
    "Statistics); `failed calls` is",
    "the total of failed tool calls. Invalid runs (no record from hel, no successful model",
    "response, or an answer from another model than the one requested) are left out of every",
    "figure but listed below.",
    "",
    ...statsMarkdown(summaries, runs),
    "",
    "## Where each figure comes from",
    "",
    "Each run's folder sits beside this report, under the name listed under Runs.",
    "",
    "- pass, invalid: `verdict.json` → `overall`, `invalid_reasons` (rewritten by every report)",
    "- check columns and details: `verdict.json` → `checks[]` (the MCP rubric reads",
    "  `raw/requests.jsonl` and the task's server log under `workspace/` (its `server_log`),",
    "  copied to `raw/mcp-server-events.jsonl`)",
    "- tokens, model calls, wall time: `record.json` → `usage` (each with its `status`)",
    "- endpoint, model, parameters, hel build, task and lab versions, machine: `record.json` →",
    "  `provenance` (its `key` decides whether a recorded run is reused)",
    "- tool calls by name, failed calls, each run's call list: `record.json` → `events[]`",
    "- MCP start: `raw/mcp.jsonl` (hel's MCP trace: `config` and `server` events)",
    "- first request's tools, first offer of loaded definitions: `raw/requests.jsonl`",
    "  (`request.tools` of each line; line numbers are request numbers)",
    "- termination and errors: `record.json` → `outcome`; hel's output: `raw/stdout.txt`, `raw/stderr.txt`",
    "",
    "## Runs",
    "",
    ...runs.map(runSection).flatMap((section) => [section, ""]),
  ];
  return parts.join("\n");
}
