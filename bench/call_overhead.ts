/**
 * Per-call overhead. One hel run whose scripted model asks for one tool call per turn, in
 * rounds of three: a loaded MCP tool, the built-in `read_file`, and `load_mcp_tool` for a name
 * already loaded (a tool that does no I/O: the loop's own turnaround). A call's time is the gap
 * between the model request that asked for it and the next one, which carries its result.
 * The same MCP call from a bare SDK client (no harness) is timed beside it.
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { benchProject, expectExit, type HelCommand, modelArgs, runTimed } from "./hel_process.ts";
import { configureServers, fixtureArgs } from "./mcp_setup.ts";
import { expectConsumed, type PlainTurn, timedModel } from "./scripted.ts";
import { gaps, median, repeat } from "./stats.ts";

const TOOL = "mcp__bench__tool_0001";
const ARGS = { query: "owner:ada status:open", limit: 5 };

/** Per-call figures (medians, ms). */
export interface CallOverhead {
  runs: number;
  /** Rounds of one call of each kind per hel run (the first round is warm-up). */
  callsPerBlock: number;
  /** Model request → next model request around one MCP tool call, through hel. */
  mcpThroughHelMs: number;
  /** The same `tools/call` from a bare MCP SDK client, round trip. */
  mcpBareSdkMs: number;
  /** Model request → next model request around one `read_file`. */
  readFileMs: number;
  /** Model request → next model request around a tool that does no I/O. */
  loopTurnaroundMs: number;
}

const KINDS = ["mcp", "read", "noop"] as const;

function call(kind: (typeof KINDS)[number], round: number): PlainTurn {
  if (kind === "mcp") return { toolCalls: [{ name: TOOL, arguments: ARGS }] };
  if (kind === "read") {
    return { toolCalls: [{ name: "read_file", arguments: { path: `src/file_${round}.txt` } }] };
  }
  return { toolCalls: [{ name: "load_mcp_tool", arguments: { names: [TOOL] } }] };
}

async function throughHel(hel: HelCommand, calls: number) {
  const files = Object.fromEntries(
    Array.from(
      { length: calls },
      (_, i) => [`src/file_${i}.txt`, `line of file ${i}\n`.repeat(40)],
    ),
  );
  await using project = await benchProject(files);
  await configureServers(project.project, project.home, {
    count: 1,
    toolsPerServer: 10,
    delayMs: 0,
  });
  // Rounds of one call of each kind, so warm-up and the growing conversation weigh alike.
  const rounds = Array.from({ length: calls }, (_, round) => KINDS.map((k) => call(k, round)));
  const script: PlainTurn[] = [
    { toolCalls: [{ name: "load_mcp_tool", arguments: { names: [TOOL] } }] },
    ...rounds.flat(),
    { text: "Done." },
  ];
  await using model = timedModel(script);
  const turns = ["--max-turns", String(script.length)];
  const run = await runTimed(hel, [...modelArgs(model.url), ...turns, "exercise the tools"], {
    cwd: project.project,
    home: project.home,
  });
  expectExit(run, 0, "per-call run");
  expectConsumed(model, "per-call run");
  const mcpAnswer = String(model.arrivals[2]?.request.messages.at(-1)?.content ?? "");
  if (!mcpAnswer.includes("tool_0001")) {
    throw new Error(`the MCP call did not answer: ${mcpAnswer}`);
  }
  // times[k] is the call asked for by request k; request 0 loaded the tool, round 0 warms up.
  const times = gaps(model.arrivals.map((arrival) => arrival.at)).slice(1);
  const of = (kind: number) =>
    times.filter((_, k) => k >= KINDS.length && k % KINDS.length === kind);
  return { mcp: of(0), read: of(1), noop: of(2) };
}

async function bareSdk(calls: number): Promise<number[]> {
  const client = new Client({ name: "hel-bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: "python3",
      args: fixtureArgs({ toolsPerServer: 10, delayMs: 0 }),
    }),
  );
  try {
    await client.listTools();
    const times: number[] = [];
    for (let i = 0; i <= calls; i++) {
      const start = performance.now();
      const result = await client.callTool({ name: "tool_0001", arguments: ARGS });
      if (result.isError) throw new Error("the bare SDK call failed");
      if (i > 0) times.push(performance.now() - start); // the first call warms up
    }
    return times;
  } finally {
    await client.close();
  }
}

/** Measures `runs` hel runs of `calls` calls per block, and as many bare SDK calls. */
export async function callOverhead(
  hel: HelCommand,
  runs: number,
  calls = 20,
): Promise<CallOverhead> {
  const samples = await repeat(runs, () => throughHel(hel, calls));
  const bare = (await repeat(runs, () => bareSdk(calls))).flat();
  return {
    runs,
    callsPerBlock: calls,
    mcpThroughHelMs: median(samples.flatMap((s) => s.mcp)),
    mcpBareSdkMs: median(bare),
    readFileMs: median(samples.flatMap((s) => s.read)),
    loopTurnaroundMs: median(samples.flatMap((s) => s.noop)),
  };
}
