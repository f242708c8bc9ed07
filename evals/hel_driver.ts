/**
 * Runs hel once for an eval run: the condition's settings become hel flags, hel runs in the
 * workspace with `--record` under the lab's budget, and its record is read back. When the
 * budget's time is up hel is interrupted (SIGINT, so it still writes its record), then
 * killed after a grace period. A run that leaves no record gets a failure record written here.
 *
 * @module
 */
import type { RunRecord } from "../agent/record.ts";
import { RECORD_SCHEMA_VERSION } from "../agent/record.ts";
import type { Endpoint } from "./endpoint.ts";
import type { HelSettings, Lab } from "./spec.ts";
import { openResultFile } from "./result_file.ts";

/** What the driver needs for one invocation. */
export interface HelInvocation {
  repoRoot: string;
  runDir: string;
  workspace: string;
  helHome: string;
  instruction: string;
  settings: HelSettings;
  budget: Lab["budget"];
  endpoint: Endpoint;
}

/** How the hel process ended. */
export interface HelProcessResult {
  record: RunRecord;
  exitCode: number | null;
  timedOut: boolean;
  /** The command line, without the key (the key travels only in the environment). */
  args: string[];
}

const GRACE_MS = 10_000;

/** Marks a record the eval runner wrote because hel left none (such a run is invalid). */
export const RUNNER_RECORD = "eval runner";
const PASSED_ENV = [
  "PATH",
  "HOME",
  "LANG",
  "LC_ALL",
  "TMPDIR",
  "DENO_DIR",
  "XDG_CACHE_HOME",
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "NO_PROXY",
  "https_proxy",
  "http_proxy",
  "no_proxy",
];

/** The hel flags for a condition's settings; a setting left out adds no flag. */
export function settingsFlags(settings: HelSettings): string[] {
  const flags: string[] = [];
  for (const plugin of settings.without ?? []) flags.push("--without", plugin);
  if (settings.tools) flags.push("--tools", settings.tools.join(","));
  if (settings.access) flags.push("--access", settings.access);
  if (settings.env === false) flags.push("--no-env");
  if (settings.context_file === false) flags.push("--no-context-file");
  else if (settings.context_file) flags.push("--context-file", settings.context_file);
  if (settings.compaction === false) flags.push("--no-compaction");
  if (settings.mcp_eager) flags.push("--mcp-eager");
  if (settings.mcp_catalogue) flags.push("--mcp-catalogue", settings.mcp_catalogue);
  return flags;
}

/** The full hel argument list (after `deno run -A --config deno.json main.ts`). */
export function helArguments(invocation: HelInvocation): string[] {
  const { budget, endpoint } = invocation;
  return [
    "--instruction",
    invocation.instruction,
    "--base-url",
    endpoint.baseUrl,
    "--model",
    endpoint.model,
    "--max-turns",
    String(budget.max_turns),
    "--timeout",
    String(budget.timeout_seconds),
    "--max-output-tokens",
    String(budget.max_output_tokens),
    ...settingsFlags(invocation.settings),
    "--record",
    `${invocation.runDir}/record.json`,
  ];
}

function childEnvironment(invocation: HelInvocation): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED_ENV) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  env.HEL_HOME = invocation.helHome;
  env.DEEPSEEK_API_KEY = invocation.endpoint.apiKey;
  env.NO_COLOR = "1";
  return env;
}

/** Runs hel and returns its record (or a failure record when it left none). */
export async function runHelOnce(invocation: HelInvocation): Promise<HelProcessResult> {
  const args = helArguments(invocation);
  const rawDir = `${invocation.runDir}/raw`;
  await Deno.mkdir(invocation.runDir, { recursive: true });
  const stdoutFile = await openResultFile(invocation.runDir, `${rawDir}/stdout.txt`);
  const stderrFile = await openResultFile(invocation.runDir, `${rawDir}/stderr.txt`);
  const started = performance.now();
  const startedAt = new Date();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      "--config",
      `${invocation.repoRoot}/deno.json`,
      `${invocation.repoRoot}/main.ts`,
      ...args,
    ],
    cwd: invocation.workspace,
    env: childEnvironment(invocation),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = child.stdout.pipeTo(stdoutFile.writable);
  const stderr = child.stderr.pipeTo(stderrFile.writable);

  let timedOut = false;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const budgetTimer = setTimeout(() => {
    timedOut = true;
    // SIGINT lets hel stop the request in flight, shut its servers down and write the record.
    signal(child, "SIGINT");
    killTimer = setTimeout(() => signal(child, "SIGKILL"), GRACE_MS);
  }, invocation.budget.timeout_seconds * 1000);
  const status = await child.status;
  clearTimeout(budgetTimer);
  clearTimeout(killTimer);
  await Promise.allSettled([stdout, stderr]);
  const exitCode = status.signal === null ? status.code : null;

  let record = await readRecord(`${invocation.runDir}/record.json`);
  if (!record) {
    const stderrText = await Deno.readTextFile(`${rawDir}/stderr.txt`).catch(() => "");
    const how = timedOut
      ? `was stopped after the budget of ${invocation.budget.timeout_seconds} s`
      : status.signal
      ? `was killed by ${status.signal}`
      : `exited with code ${status.code}`;
    record = failureRecord(
      invocation,
      startedAt,
      Math.round(performance.now() - started),
      `hel ${how} and wrote no record: ${stderrText.trim().slice(-500) || "(no stderr)"}`,
      timedOut ? "timeout" : "error",
      exitCode,
    );
  } else if (timedOut) {
    record.outcome = {
      ...record.outcome,
      termination: "timeout",
      error:
        `stopped by the eval runner after the budget of ${invocation.budget.timeout_seconds} s` +
        ` (hel ended with ${record.outcome.termination})`,
    };
  }
  return { record, exitCode, timedOut, args };
}

function signal(child: Deno.ChildProcess, name: Deno.Signal) {
  try {
    child.kill(name);
  } catch { /* already gone */ }
}

async function readRecord(path: string): Promise<RunRecord | undefined> {
  try {
    const record = JSON.parse(await Deno.readTextFile(path)) as RunRecord;
    return record?.schema_version === RECORD_SCHEMA_VERSION ? record : undefined;
  } catch {
    return undefined;
  }
}

/** A record for a run hel did not record itself: everything unavailable but wall time. */
export function failureRecord(
  invocation: Pick<HelInvocation, "endpoint">,
  startedAt: Date,
  wallMs: number,
  error: string,
  termination: "error" | "timeout",
  exitCode: number | null,
): RunRecord {
  const unavailable = { value: null, status: "unavailable" as const };
  return {
    schema_version: RECORD_SCHEMA_VERSION,
    run: {
      session_id: null,
      started_at: startedAt.toISOString(),
      ended_at: new Date().toISOString(),
    },
    harness: { name: "hel", version: "unknown", plugins: [], recorded_by: RUNNER_RECORD },
    model: {
      requested: invocation.endpoint.model,
      actual: null,
      base_url: invocation.endpoint.baseUrl,
      params: {},
    },
    outcome: { final_output: null, termination, error, exit_code: exitCode },
    usage: {
      input_tokens: unavailable,
      output_tokens: unavailable,
      cached_input_tokens: unavailable,
      model_calls: unavailable,
      wall_time_ms: { value: wallMs, status: "measured" },
    },
    events: [],
    warnings: [],
    artifacts: { requests: "raw/requests.jsonl", permissions: "raw/permissions.jsonl", traces: {} },
  };
}
