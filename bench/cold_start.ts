/**
 * Cold start: `hel --version` (spawn to exit), and a one-shot run from spawn to the moment
 * the first model request reaches the scripted model.
 *
 * @module
 */
import { benchProject, expectExit, type HelCommand, modelArgs, runTimed } from "./hel_process.ts";
import { expectConsumed, timedModel } from "./scripted.ts";
import { median, repeat } from "./stats.ts";

/** Cold-start figures of one way of running hel, in milliseconds (medians). */
export interface ColdStart {
  hel: HelCommand["label"];
  runs: number;
  versionMs: number;
  firstRequestMs: number;
  /** Spawn to exit of the whole one-shot run (one model turn, no tools). */
  oneShotMs: number;
}

/** Measures `hel` `runs` times per figure. */
export async function coldStart(hel: HelCommand, runs: number): Promise<ColdStart> {
  const version = await repeat(runs, async () => {
    await using project = await benchProject();
    const run = await runTimed(hel, ["--version"], { cwd: project.project, home: project.home });
    expectExit(run, 0, "hel --version");
    return run.endedAt - run.startedAt;
  });
  const firstRequest = await repeat(runs, async () => {
    await using project = await benchProject({ "notes.txt": "hello\n" });
    await using model = timedModel([{ text: "Nothing to do." }]);
    const run = await runTimed(hel, [...modelArgs(model.url), "say hello"], {
      cwd: project.project,
      home: project.home,
    });
    expectExit(run, 0, "one-shot run");
    expectConsumed(model, "one-shot run");
    return { first: model.arrivals[0]!.at - run.startedAt, total: run.endedAt - run.startedAt };
  });
  return {
    hel: hel.label,
    runs,
    versionMs: median(version),
    firstRequestMs: median(firstRequest.map((r) => r.first)),
    oneShotMs: median(firstRequest.map((r) => r.total)),
  };
}
