/**
 * MCP start: how long until the servers' tools are listed, with 1 and with 10 fixture
 * servers that each take a fixed time to start. Measured two ways: `hel mcp list` from spawn
 * to exit, and a one-shot run from spawn to its first model request (the tools are listed
 * before that request is built). If hel started servers one after another, 10 servers would
 * cost about ten times one; started together they cost about as much as one.
 *
 * @module
 */
import { benchProject, expectExit, type HelCommand, modelArgs, runTimed } from "./hel_process.ts";
import { configureServers } from "./mcp_setup.ts";
import { expectConsumed, timedModel } from "./scripted.ts";
import { median, repeat } from "./stats.ts";

/** Start-up figures for one server count (medians, ms). */
export interface StartRow {
  servers: number;
  /** Spawn to exit of `hel mcp list` (undefined for no servers). */
  listMs?: number;
  /** Spawn to the first model request of a one-shot run. */
  firstRequestMs: number;
}

/** The MCP start figures. */
export interface McpStart {
  runs: number;
  delayMs: number;
  toolsPerServer: number;
  rows: StartRow[];
  /** firstRequest(1 server) − firstRequest(0): what one server adds. */
  oneServerCostMs: number;
  /** firstRequest(10 servers) − firstRequest(0): what ten servers add. */
  tenServersCostMs: number;
  /** 10 × oneServerCostMs: what ten would add if started one after another. */
  sequentialEstimateMs: number;
}

async function measure(hel: HelCommand, servers: number, delayMs: number, tools: number) {
  await using project = await benchProject({ "notes.txt": "hello\n" });
  await configureServers(project.project, project.home, {
    count: servers,
    toolsPerServer: tools,
    delayMs,
  });
  let listMs: number | undefined;
  if (servers > 0) {
    const list = await runTimed(hel, ["mcp", "list"], { cwd: project.project, home: project.home });
    expectExit(list, 0, `hel mcp list with ${servers} servers`);
    const connected = list.stdout.match(/tool_0000/g)?.length ?? 0;
    if (connected !== servers) {
      throw new Error(`hel mcp list showed ${connected} of ${servers} servers:\n${list.stdout}`);
    }
    listMs = list.endedAt - list.startedAt;
  }
  await using model = timedModel([{ text: "Nothing to do." }]);
  const run = await runTimed(hel, [...modelArgs(model.url), "say hello"], {
    cwd: project.project,
    home: project.home,
  });
  expectExit(run, 0, `one-shot run with ${servers} servers`);
  expectConsumed(model, `one-shot run with ${servers} servers`);
  const system = String(model.arrivals[0]!.request.messages[0]?.content ?? "");
  const listed = system.match(/__tool_0000/g)?.length ?? 0;
  if (listed !== servers) {
    throw new Error(`the first request listed ${listed} of ${servers} servers`);
  }
  return { listMs, firstRequestMs: model.arrivals[0]!.at - run.startedAt };
}

/** Measures 0, 1 and 10 servers, `runs` times each, interleaved so drift hits all alike. */
export async function mcpStart(
  hel: HelCommand,
  runs: number,
  delayMs = 200,
  toolsPerServer = 10,
): Promise<McpStart> {
  const counts = [0, 1, 10];
  const samples = new Map(
    counts.map((count) => [count, [] as Awaited<ReturnType<typeof measure>>[]]),
  );
  await repeat(runs, async () => {
    for (const count of counts) {
      samples.get(count)!.push(await measure(hel, count, delayMs, toolsPerServer));
    }
  });
  const rows = counts.map((servers) => {
    const list = samples.get(servers)!;
    const listTimes = list.flatMap((sample) => sample.listMs === undefined ? [] : [sample.listMs]);
    return {
      servers,
      ...(listTimes.length > 0 ? { listMs: median(listTimes) } : {}),
      firstRequestMs: median(list.map((sample) => sample.firstRequestMs)),
    };
  });
  const base = rows[0]!.firstRequestMs;
  const one = rows[1]!.firstRequestMs - base;
  return {
    runs,
    delayMs,
    toolsPerServer,
    rows,
    oneServerCostMs: one,
    tenServersCostMs: rows[2]!.firstRequestMs - base,
    sequentialEstimateMs: 10 * one,
  };
}
