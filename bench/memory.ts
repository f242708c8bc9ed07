/**
 * Peak memory of a run with 10 MCP servers (a load, an MCP call and a `read_file`), beside the
 * same run without servers. Probed from `/proc` while hel waits for its last model answer:
 * hel's own peak resident size, and the servers' (its descendants') peak sizes summed.
 *
 * @module
 */
import { benchProject, expectExit, type HelCommand, modelArgs, runTimed } from "./hel_process.ts";
import { configureServers } from "./mcp_setup.ts";
import { treeMemory } from "./memory_probe.ts";
import { expectConsumed, type PlainTurn, timedModel } from "./scripted.ts";
import { median, repeat } from "./stats.ts";

/** Peak memory figures (medians, MiB); undefined where /proc is not available. */
export interface Memory {
  runs: number;
  noServersHelMiB?: number;
  tenServersHelMiB?: number;
  tenServersChildrenMiB?: number;
  /** Descendant processes seen at the probe (10 servers expected). */
  children: number;
}

async function probe(hel: HelCommand, servers: number) {
  await using project = await benchProject({ "notes.txt": "hello\n".repeat(100) });
  await configureServers(project.project, project.home, {
    count: servers,
    toolsPerServer: 10,
    delayMs: 0,
  });
  const tool = servers > 0 ? "mcp__s00__tool_0002" : undefined;
  const turns: PlainTurn[] = [
    ...(tool
      ? [
        { toolCalls: [{ name: "load_mcp_tool", arguments: { names: [tool] } }] },
        { toolCalls: [{ name: tool, arguments: { query: "x" } }] },
      ]
      : []),
    { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] },
    { text: "Done." },
  ];
  let pid = 0;
  let seen: ReturnType<typeof treeMemory> | undefined;
  await using model = timedModel(turns, (_arrival, index) => {
    if (index === turns.length - 1) seen = treeMemory(pid);
  });
  const run = await runTimed(hel, [...modelArgs(model.url), "look around"], {
    cwd: project.project,
    home: project.home,
    onSpawn: (spawned) => pid = spawned,
  });
  expectExit(run, 0, `memory run with ${servers} servers`);
  expectConsumed(model, `memory run with ${servers} servers`);
  return seen!;
}

const mib = (kib: number | undefined) => kib === undefined ? undefined : kib / 1024;

function medianOf(values: (number | undefined)[]): number | undefined {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length > 0 ? median(known) : undefined;
}

/** Measures `runs` runs with no servers and with 10. */
export async function memory(hel: HelCommand, runs: number): Promise<Memory> {
  const none = await repeat(runs, () => probe(hel, 0));
  const ten = await repeat(runs, () => probe(hel, 10));
  return {
    runs,
    noServersHelMiB: mib(medianOf(none.map((m) => m.helKiB))),
    tenServersHelMiB: mib(medianOf(ten.map((m) => m.helKiB))),
    tenServersChildrenMiB: mib(medianOf(ten.map((m) => m.childrenKiB))),
    children: Math.max(...ten.map((m) => m.children)),
  };
}
