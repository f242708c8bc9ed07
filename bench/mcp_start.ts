/**
 * MCP start: how long until the servers' tools are listed, with 1 and with 10 fixture
 * servers that each take a fixed time to start, each count sandboxed (hel's default) and with
 * `"sandbox": false`, so the difference is what the sandbox adds per server. Measured two ways: `hel mcp list` from spawn
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
  /** Whether the servers ran in the sandbox (meaningless for no servers). */
  sandboxed: boolean;
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
  /** firstRequest(1 server) − firstRequest(0): what one unsandboxed server adds. */
  oneServerCostMs: number;
  /** The same for one sandboxed server. */
  oneSandboxedCostMs: number;
  /** firstRequest(10 servers) − firstRequest(0): what ten unsandboxed servers add. */
  tenServersCostMs: number;
  /** The same for ten sandboxed servers. */
  tenSandboxedCostMs: number;
  /** 10 × oneServerCostMs: what ten would add if started one after another. */
  sequentialEstimateMs: number;
}

async function measure(
  hel: HelCommand,
  servers: number,
  sandbox: boolean,
  delayMs: number,
  tools: number,
) {
  await using project = await benchProject({ "notes.txt": "hello\n" });
  await configureServers(project.project, project.home, {
    count: servers,
    toolsPerServer: tools,
    delayMs,
    sandbox,
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
  // The listed catalogue, whatever its size: this measures start-up, not the search mode.
  const run = await runTimed(
    hel,
    [...modelArgs(model.url), "--mcp-catalogue", "list", "say hello"],
    {
      cwd: project.project,
      home: project.home,
    },
  );
  expectExit(run, 0, `one-shot run with ${servers} servers`);
  expectConsumed(model, `one-shot run with ${servers} servers`);
  const system = String(model.arrivals[0]!.request.messages[0]?.content ?? "");
  const listed = system.match(/__tool_0000/g)?.length ?? 0;
  if (listed !== servers) {
    throw new Error(`the first request listed ${listed} of ${servers} servers`);
  }
  return { listMs, firstRequestMs: model.arrivals[0]!.at - run.startedAt };
}

/**
 * Measures no servers, then 1 and 10 servers unsandboxed and sandboxed, `runs` times each,
 * interleaved so drift hits all alike.
 */
export async function mcpStart(
  hel: HelCommand,
  runs: number,
  delayMs = 200,
  toolsPerServer = 10,
): Promise<McpStart> {
  const configs = [[0, true], [1, false], [1, true], [10, false], [10, true]] as const;
  const samples = configs.map(() => [] as Awaited<ReturnType<typeof measure>>[]);
  await repeat(runs, async () => {
    for (const [index, [count, sandbox]] of configs.entries()) {
      samples[index]!.push(await measure(hel, count, sandbox, delayMs, toolsPerServer));
    }
  });
  const rows: StartRow[] = configs.map(([servers, sandboxed], index) => {
    const list = samples[index]!;
    const listTimes = list.flatMap((sample) => sample.listMs === undefined ? [] : [sample.listMs]);
    return {
      servers,
      sandboxed,
      ...(listTimes.length > 0 ? { listMs: median(listTimes) } : {}),
      firstRequestMs: median(list.map((sample) => sample.firstRequestMs)),
    };
  });
  const cost = (index: number) => rows[index]!.firstRequestMs - rows[0]!.firstRequestMs;
  return {
    runs,
    delayMs,
    toolsPerServer,
    rows,
    oneServerCostMs: cost(1),
    oneSandboxedCostMs: cost(2),
    tenServersCostMs: cost(3),
    tenSandboxedCostMs: cost(4),
    sequentialEstimateMs: 10 * cost(1),
  };
}
