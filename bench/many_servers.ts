/**
 * Many servers (issue 17): 50 fixture servers (10 tools each, 200 ms to start, sandboxed as hel
 * runs them by default), started together: spawn → first model request of a one-shot run,
 * hel's peak memory and the servers' at that request, and `hel mcp list` from spawn to exit.
 *
 * @module
 */
import { benchProject, expectExit, type HelCommand, modelArgs, runTimed } from "./hel_process.ts";
import { configureServers } from "./mcp_setup.ts";
import { treeMemory } from "./memory_probe.ts";
import { expectConsumed, timedModel } from "./scripted.ts";
import { median, repeat } from "./stats.ts";

/** The figures (medians; memory in MiB, undefined without /proc). */
export interface ManyServers {
  servers: number;
  runs: number;
  delayMs: number;
  firstRequestMs: number;
  listMs: number;
  helMiB?: number;
  serversMiB?: number;
}

async function once(hel: HelCommand, servers: number, delayMs: number) {
  await using project = await benchProject({ "notes.txt": "hello\n" });
  await configureServers(project.project, project.home, {
    count: servers,
    toolsPerServer: 10,
    delayMs,
  });
  const options = { cwd: project.project, home: project.home };
  const list = await runTimed(hel, ["--mcp-startup-timeout", "120", "mcp", "list"], options);
  expectExit(list, 0, `hel mcp list with ${servers} servers`);
  const listed = list.stdout.match(/tool_0000/g)?.length ?? 0;
  if (listed !== servers) throw new Error(`hel mcp list showed ${listed} of ${servers} servers`);
  let pid = 0;
  let memory: ReturnType<typeof treeMemory> | undefined;
  await using model = timedModel([{ text: "Nothing to do." }], () => memory = treeMemory(pid));
  const run = await runTimed(
    hel,
    [...modelArgs(model.url), "--mcp-startup-timeout", "120", "say hello"],
    { ...options, onSpawn: (spawned) => pid = spawned },
  );
  expectExit(run, 0, `one-shot run with ${servers} servers`);
  expectConsumed(model, `one-shot run with ${servers} servers`);
  return {
    listMs: list.endedAt - list.startedAt,
    firstRequestMs: model.arrivals[0]!.at - run.startedAt,
    helKiB: memory?.helKiB,
    childrenKiB: memory?.childrenKiB,
  };
}

function medianMiB(values: (number | undefined)[]): number | undefined {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length > 0 ? median(known) / 1024 : undefined;
}

/** Measures `servers` servers `runs` times. */
export async function manyServers(
  hel: HelCommand,
  runs: number,
  servers = 50,
  delayMs = 200,
): Promise<ManyServers> {
  const samples = await repeat(runs, () => once(hel, servers, delayMs));
  return {
    servers,
    runs,
    delayMs,
    firstRequestMs: median(samples.map((s) => s.firstRequestMs)),
    listMs: median(samples.map((s) => s.listMs)),
    helMiB: medianMiB(samples.map((s) => s.helKiB)),
    serversMiB: medianMiB(samples.map((s) => s.childrenKiB)),
  };
}

if (import.meta.main) {
  const { fromSource } = await import("./hel_process.ts");
  console.log(JSON.stringify(await manyServers(fromSource(), 1), null, 2));
}
