/**
 * Per-call overhead. One hel run whose scripted model asks for one tool call per turn, in
 * blocks: a loaded MCP tool, the built-in `read_file`, and `load_mcp_tool` for a name already
 * loaded (a tool that does no I/O: the loop's own turnaround). A call's time is the gap
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

function block(count: number, name: string, args: (i: number) => unknown): PlainTurn[] {
  return Array.from({ length: count }, (_, i) => ({ toolCalls: [{ name, arguments: args(i) }] }));
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
  const blocks = [
    block(calls, TOOL, () => ARGS),
    block(calls, "read_file", (i) => ({ path: `src/file_${i}.txt` })),
    block(calls, "load_mcp_tool", () => ({ names: [TOOL] })),
  ];
  const script: PlainTurn[] = [
    { toolCalls: [{ name: "load_mcp_tool", arguments: { names: [TOOL] } }] },
    ...blocks.flat(),
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
  const answers = model.arrivals.map((a) => a.request.messages.at(-1));
  const mcpAnswer = String(answers[2]?.content ?? "");
  if (!mcpAnswer.includes("tool_0001")) {
    throw new Error(`the MCP call did not answer: ${mcpAnswer}`);
  }
  const times = gaps(model.arrivals.map((arrival) => arrival.at));
  // times[k] is the call asked for by request k; request 0 loaded the tool.
  const slice = (index: number) => times.slice(1 + index * calls, 1 + (index + 1) * calls).slice(1);
  return { mcp: slice(0), read: slice(1), noop: slice(2) };
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
