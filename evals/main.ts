/**
 * `deno task eval`: measure hel on labs of tasks.
 *
 *   deno task eval <lab>                                 run every condition, then report
 *   deno task eval run <lab> [--conditions a,b] [--reps N] [--fresh] [--dry-run]
 *                          [--parallel N] [--shard K/N] [--rpm N]
 *   deno task eval report <lab>
 *   deno task eval merge DIR... [--results-dir OUT]      shards' results into one, then report
 *   deno task eval list
 *   deno task eval try <task> [--condition NAME] [--lab LAB]
 *
 * The model comes from the lab; `--base-url` and `--model` replace it (any OpenAI-compatible
 * server), and the key comes from DEEPSEEK_API_KEY or the repository's `.env`. Errors print
 * `eval: <message>` and exit 2.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
import { Command, CommanderError } from "commander";
import { EndpointError, type EndpointOverrides, resolveEndpoint } from "./endpoint.ts";
import { harnessBuild } from "./harness_build.ts";
import { mergeResults } from "./merge.ts";
import { writeReport } from "./report.ts";
import { dryRun, listLabs } from "./plan.ts";
import { type EvalContext, runLab, selectConditions } from "./runner.ts";
import {
  paceRequests,
  parseSchedule,
  type ScheduleFlags,
  wholeNumber,
} from "./schedule_options.ts";
import { type Lab, labIds, loadLab, loadTask, SpecError } from "./spec.ts";
import { tryTask } from "./try_task.ts";
import { PinError } from "./workspace.ts";

const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url)).replace(/\/$/, "");

interface CommonOptions extends EndpointOverrides {
  resultsDir: string;
  evalsDir: string;
}

type RunOptions = CommonOptions & ScheduleFlags & {
  conditions?: string;
  fresh?: boolean;
  reps?: number;
  dryRun?: boolean;
};
type TryOptions = CommonOptions & { condition?: string; lab?: string };

const out = (line: string) => console.log(line);

/**
 * A folder named on the command line, made absolute: hel runs in each run's workspace, so a
 * relative path handed on (`--record`, `HEL_HOME`) would land inside the workspace. `deno task`
 * runs in the repository root and keeps the folder it was started in as INIT_CWD, which is the
 * one the user meant.
 */
function absoluteDir(dir: string): string {
  return resolve(Deno.env.get("INIT_CWD") ?? Deno.cwd(), dir);
}

function common(command: Command): Command {
  return command
    .option("--base-url <url>", "OpenAI-compatible server to use instead of the lab's")
    .option("--model <id>", "model id to use instead of the lab's")
    .option("--results-dir <dir>", "where runs are kept", absoluteDir, `${REPO_ROOT}/results`)
    .option("--evals-dir <dir>", "where labs/ and tasks/ are", absoluteDir, `${REPO_ROOT}/evals`);
}

/** `--reps N`: repetitions from 1 to 99, as a lab's `repetitions` allows. */
const repetitions = (value: string) => wholeNumber("--reps", value, 1, 99);

function runOptions(command: Command): Command {
  return command
    .option("--conditions <names>", "only these conditions, comma-separated")
    .option("--reps <n>", "repetitions per condition (default: the lab's)", repetitions)
    .option("--fresh", "run again even runs recorded with the same inputs")
    .option("--dry-run", "list the runs that would be made or reused; run nothing")
    .option("--parallel <n>", "runs at a time, each in its own folder and HEL_HOME (default 1)")
    .option("--shard <k/n>", "only the k-th of n deterministic slices of the runs (e.g. 2/3)")
    .option(
      "--rpm <n>",
      "model requests per minute over all runs (default 60 with --parallel, else no limit; 0: none)",
    );
}

async function loadTasks(evalsDir: string, lab: Lab) {
  const tasks = [];
  for (const id of lab.tasks) tasks.push(await loadTask(evalsDir, id));
  return tasks;
}

async function loadLabAndTasks(options: CommonOptions, labId: string) {
  const lab = await loadLab(options.evalsDir, labId);
  return { lab, tasks: await loadTasks(options.evalsDir, lab) };
}

async function evalContext(
  options: CommonOptions,
  lab: Lab,
  planOnly = false,
): Promise<EvalContext> {
  return {
    repoRoot: REPO_ROOT,
    evalsDir: options.evalsDir,
    resultsDir: options.resultsDir,
    endpoint: await resolveEndpoint(lab, REPO_ROOT, options, { planOnly }),
    build: await harnessBuild(REPO_ROOT),
    out,
  };
}

async function report(options: CommonOptions, labId: string): Promise<number> {
  const { lab, tasks } = await loadLabAndTasks(options, labId);
  const written = await writeReport(options.resultsDir, lab, tasks);
  if (!written) {
    out(`${lab.lab} · no runs in ${options.resultsDir}/${lab.lab}`);
    return 0;
  }
  // Through console.log like every other line: a closed pipe (`| head`) is then no crash.
  out(written.terminal.trimEnd());
  return 0;
}

async function run(
  options: RunOptions,
  labId: string,
  thenReport: boolean,
): Promise<number> {
  const loaded = await loadLabAndTasks(options, labId);
  const { tasks } = loaded;
  const lab = options.reps === undefined
    ? loaded.lab
    : { ...loaded.lab, repetitions: options.reps };
  const conditions = selectConditions(
    lab,
    options.conditions?.split(",").map((name) => name.trim()).filter(Boolean),
  );
  const schedule = parseSchedule(options);
  const context = await evalContext(options, lab, options.dryRun);
  out(
    `${lab.lab} · ${context.endpoint.model} at ${context.endpoint.baseUrl}` +
      `${context.endpoint.overridden ? " (overridden)" : ""} · hel ${context.build}` +
      (context.endpoint.scripted
        ? " · SCRIPTED MODEL (checks the plumbing, measures no model)"
        : "") +
      (schedule.shard ? ` · shard ${schedule.shard.index}/${schedule.shard.count}` : "") +
      (schedule.parallel > 1 ? ` · ${schedule.parallel} at a time` : "") +
      (schedule.rpm > 0 ? ` · at most ${schedule.rpm} requests/min` : ""),
  );
  if (options.dryRun) {
    await dryRun(context, lab, tasks, conditions, options.fresh ?? false, schedule.shard);
    return 0;
  }
  await using proxy = paceRequests(context.endpoint.baseUrl, schedule.rpm);
  if (proxy) context.helBaseUrl = proxy.baseUrl;
  const { ran, skipped } = await runLab(
    context,
    lab,
    tasks,
    conditions,
    options.fresh ?? false,
    schedule,
  );
  out(
    `${ran} run(s) done, ${skipped} skipped (recorded with the same inputs; --fresh runs them again)`,
  );
  if (proxy && proxy.pacer.stats.waitedMs > 0) {
    const { requests, waitedMs } = proxy.pacer.stats;
    out(`${requests} model requests, held back ${(waitedMs / 1000).toFixed(1)} s in all by --rpm`);
  }
  return thenReport ? await report(options, labId) : 0;
}

async function merge(options: CommonOptions, sources: string[]): Promise<number> {
  const merged = await mergeResults(sources.map(absoluteDir), options.resultsDir);
  let code = 0;
  for (const [labId, runs] of merged) {
    out(`${labId} · ${runs} run(s) merged into ${options.resultsDir}/${labId}`);
    code = Math.max(code, await report(options, labId));
  }
  return code;
}

async function main(argv: string[]): Promise<number> {
  let code = 0;
  const program = runOptions(common(
    new Command()
      .name("deno task eval")
      .description("measure hel on a lab: run its conditions, check the runs, compare them")
      .argument("[lab]", "run every condition of this lab, then write the report"),
  ))
    .enablePositionalOptions() // each subcommand reads its own copy of the shared options
    .exitOverride()
    // Subcommands made after this inherit it: every usage error points at the help.
    .showHelpAfterError("(deno task eval --help lists the commands; <command> --help its options)")
    .action(async (labId: string | undefined, options: RunOptions) => {
      if (labId === undefined) {
        const labs = await labIds(options.evalsDir);
        throw new SpecError(`name a lab (labs: ${labs.join(", ") || "none"}); see --help`);
      }
      code = await run(options, labId, true);
    });
  runOptions(common(
    program.command("run").description("run a lab's conditions (records are kept per run)")
      .argument("<lab>"),
  )).action(async (labId: string, options: RunOptions) => {
    code = await run(options, labId, false);
  });
  common(
    program.command("report").description("check the lab's runs again and write the report")
      .argument("<lab>"),
  ).action(async (labId: string, options: CommonOptions) => {
    code = await report(options, labId);
  });
  common(
    program.command("list").description(
      "the labs: conditions, tasks, runs and how many are recorded",
    ),
  ).action(async (options: CommonOptions) => {
    await listLabs(
      options.evalsDir,
      options.resultsDir,
      (lab) => loadTasks(options.evalsDir, lab),
      out,
    );
  });
  common(
    program.command("merge")
      .description("gather the runs of several results folders (shards) into --results-dir, report")
      .argument("<dirs...>", "results folders, each holding <lab>/<run>/ folders"),
  ).action(async (dirs: string[], options: CommonOptions) => {
    code = await merge(options, dirs);
  });
  common(
    program.command("try").description("run one task once and show what happened")
      .argument("<task>")
      .option("--condition <name>", "the lab condition to use (default variant)")
      .option("--lab <lab>", "the lab whose model, budget and conditions to use"),
  ).action(async (taskId: string, options: TryOptions) => {
    const labId = options.lab ?? await labWithTask(options.evalsDir, taskId);
    const lab = await loadLab(options.evalsDir, labId);
    const task = await loadTask(options.evalsDir, taskId);
    code = await tryTask(await evalContext(options, lab), lab, task, options.condition);
  });
  await program.parseAsync(argv, { from: "user" });
  return code;
}

async function labWithTask(evalsDir: string, taskId: string): Promise<string> {
  for (const id of await labIds(evalsDir)) {
    if ((await loadLab(evalsDir, id)).tasks.includes(taskId)) return id;
  }
  const known: string[] = [];
  try {
    for await (const entry of Deno.readDir(`${evalsDir}/tasks`)) {
      if (entry.isDirectory) known.push(entry.name);
    }
  } catch { /* no tasks folder: no tasks */ }
  if (!known.includes(taskId)) {
    throw new SpecError(
      `no task named "${taskId}" in ${evalsDir}/tasks; tasks: ${known.sort().join(", ") || "none"}`,
    );
  }
  throw new SpecError(`no lab lists task "${taskId}"; name one with --lab`);
}

if (import.meta.main) {
  let code: number;
  try {
    code = await main(Deno.args);
  } catch (error) {
    if (error instanceof CommanderError) {
      code = error.exitCode === 0 ? 0 : 2;
    } else if (
      error instanceof SpecError || error instanceof EndpointError || error instanceof PinError
    ) {
      console.error(`eval: ${error.message}`);
      code = 2;
    } else {
      console.error(`eval: internal error: ${(error as Error).stack ?? error}`);
      code = 1;
    }
  }
  Deno.exit(code);
}
