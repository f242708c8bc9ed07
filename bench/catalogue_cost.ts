/**
 * The port task at scale (issue 17): evals' mcp-port-lookup-01 (look up the api port on the
 * inventory server, write it into config.ini) with the inventory server offering 10, 100, 1,000
 * and 10,000 tools (its `--extra-tools`), played by the h10 policy model, in three modes: every
 * definition up front (`--mcp-eager`), every tool listed in the system message
 * (`--mcp-catalogue list`) and search mode (`--mcp-catalogue search`). For each: requests, the
 * first request and the whole trajectory (every request summed: each carries the conversation
 * so far and is billed whole), in bytes and estimated tokens (characters / 4), the time from
 * spawn to the first request and hel's peak memory. Also search quality on the fixture of real
 * tool listings, and building the catalog and the index in process (catalog_build.ts).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { h10Policy } from "../evals/testdata/h10_model.ts";
import { measureRecall } from "../fixtures/mcp/catalogue/recall.ts";
import { benchProject, expectExit, type HelCommand, modelArgs, runTimed } from "./hel_process.ts";
import { type CatalogBuild, catalogBuild } from "./catalog_build.ts";
import { peakRssKiB } from "./memory_probe.ts";
import { trustServers } from "./mcp_setup.ts";
import { timedModel, type TrajectorySizes, trajectorySizes } from "./scripted.ts";

const TASK = fileURLToPath(new URL("../evals/tasks/mcp-port-lookup-01/", import.meta.url));
/** The inventory server's own tools (list_services, lookup_port). */
const OWN_TOOLS = 2;

/** A mode of showing the catalog. */
export type CatalogueBenchMode = "eager" | "list" | "search";

/** One trajectory of the port task. */
export interface CatalogueRow extends TrajectorySizes {
  tools: number;
  mode: CatalogueBenchMode;
  /** Spawn → first model request, ms. */
  firstRequestMs: number;
  /** hel's peak resident memory by its last request, MiB (undefined without /proc). */
  peakMiB?: number;
}

/** The figures of the catalogue benchmark. */
export interface CatalogueCost {
  rows: CatalogueRow[];
  recall: { tools: number; queries: number; at1: number; at5: number };
  /** Building the catalog and the search index in process, at 1,000 and 10,000 tools. */
  build: CatalogBuild[];
}

const FLAGS: Record<CatalogueBenchMode, string[]> = {
  eager: ["--mcp-eager"],
  list: ["--mcp-catalogue", "list"],
  search: ["--mcp-catalogue", "search"],
};

async function trajectory(
  hel: HelCommand,
  tools: number,
  mode: CatalogueBenchMode,
): Promise<CatalogueRow> {
  await using project = await benchProject({
    "config.ini": await Deno.readTextFile(`${TASK}/fixture/config.ini`),
    ".hel/mcp/inventory.py": await Deno.readTextFile(`${TASK}/fixture/.hel/mcp/inventory.py`),
  });
  await trustServers(project.project, project.home, {
    inventory: {
      command: "python3",
      args: [".hel/mcp/inventory.py", "--extra-tools", String(tools - OWN_TOOLS)],
    },
  });
  let pid = 0;
  let peakKiB: number | undefined;
  await using model = timedModel(
    Array.from({ length: 10 }, () => h10Policy),
    () => peakKiB = peakRssKiB(pid) ?? peakKiB,
  );
  const run = await runTimed(hel, [
    ...modelArgs(model.url),
    ...FLAGS[mode],
    "--mcp-startup-timeout",
    "300",
    "Look up the api service's port on the inventory server and put it into config.ini.",
  ], { cwd: project.project, home: project.home, onSpawn: (spawned) => pid = spawned });
  const what = `port task, ${mode}, ${tools} tools`;
  expectExit(run, 0, what);
  const config = await Deno.readTextFile(`${project.project}/config.ini`);
  if (!config.includes("port=8437")) {
    const last = model.arrivals.at(-1)?.request.messages.at(-1)?.content;
    throw new Error(`${what}: config.ini did not get the api port (last message: ${last})`);
  }
  return {
    tools,
    mode,
    ...trajectorySizes(model.arrivals),
    firstRequestMs: model.arrivals[0]!.at - run.startedAt,
    peakMiB: peakKiB === undefined ? undefined : peakKiB / 1024,
  };
}

/** Every cell, from one run of the benchmark. */
export async function catalogueCost(
  hel: HelCommand,
  sizes = [10, 100, 1_000, 10_000],
  buildSizes = [1_000, 10_000],
): Promise<CatalogueCost> {
  const rows: CatalogueRow[] = [];
  for (const tools of sizes) {
    for (const mode of ["eager", "list", "search"] as const) {
      rows.push(await trajectory(hel, tools, mode));
    }
  }
  const { tools, queries, at1, at5 } = await measureRecall();
  return { rows, recall: { tools, queries, at1, at5 }, build: await catalogBuild(3, buildSizes) };
}

if (import.meta.main) {
  const { fromSource } = await import("./hel_process.ts");
  const sizes = Deno.args.length > 0 ? Deno.args.map(Number) : undefined;
  console.log(JSON.stringify(await catalogueCost(fromSource(), sizes), null, 2));
}
