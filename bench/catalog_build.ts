/**
 * Building the MCP catalog and search mode's index in process (issue 17), from the real tool
 * listings of fixtures/mcp/catalogue/ repeated under numbered names up to 1,000 and 10,000
 * tools, on one server: how long `buildCatalog` takes (the cheap look at every schema; the
 * compile waits for a load or call), how long loading one tool takes (its compile), and how
 * long the search index takes to build in one go (what a search made before the background
 * build ends pays at most) and to search once.
 *
 * @module
 */
import { buildCatalog } from "../plugins/mcp/catalog.ts";
import { ToolIndex } from "../plugins/mcp/tool_index.ts";
import { median } from "./stats.ts";

const CATALOGUE = new URL("../fixtures/mcp/catalogue/", import.meta.url);

/** One size's figures (medians, ms). */
export interface CatalogBuild {
  tools: number;
  buildMs: number;
  loadOneMs: number;
  indexMs: number;
  searchMs: number;
}

/** The fixture's tools, repeated under numbered names until there are `count`. */
async function listing(count: number): Promise<unknown[]> {
  const real: Record<string, unknown>[] = [];
  for await (const file of Deno.readDir(CATALOGUE)) {
    if (!file.name.endsWith(".json") || file.name === "queries.json") continue;
    const parsed = JSON.parse(await Deno.readTextFile(new URL(file.name, CATALOGUE)));
    real.push(...parsed.tools);
  }
  real.sort((a, b) => String(a.name).localeCompare(String(b.name)));
  return Array.from({ length: count }, (_, i) => {
    const tool = real[i % real.length]!;
    // A fresh copy, as each server's listing is: nothing is shared between entries.
    return { ...structuredClone(tool), name: `${tool.name}_${Math.floor(i / real.length)}` };
  });
}

async function once(count: number): Promise<Omit<CatalogBuild, "tools">> {
  const tools = await listing(count);
  let at = performance.now();
  const catalog = await buildCatalog([{ name: "big", tools }], new Set());
  const buildMs = performance.now() - at;
  if (catalog.entries.length < count * 0.9) {
    throw new Error(`only ${catalog.entries.length} of ${count} tools are usable`);
  }
  const middle = catalog.entries[Math.floor(catalog.entries.length / 2)]!;
  at = performance.now();
  const problem = middle.compileCheck?.();
  const loadOneMs = performance.now() - at;
  if (problem !== undefined) throw new Error(`${middle.fullName}: ${problem}`);
  const index = new ToolIndex();
  at = performance.now();
  index.sync(catalog.entries);
  const indexMs = performance.now() - at;
  at = performance.now();
  index.search("show the last commits of the repository", 8);
  return { buildMs, loadOneMs, indexMs, searchMs: performance.now() - at };
}

/** Measures each size `runs` times (a fresh catalog each time; ajv's instance is shared). */
export async function catalogBuild(
  runs: number,
  sizes = [1_000, 10_000],
): Promise<CatalogBuild[]> {
  const rows: CatalogBuild[] = [];
  for (const tools of sizes) {
    const samples = [];
    for (let run = 0; run < runs; run++) samples.push(await once(tools));
    rows.push({
      tools,
      buildMs: median(samples.map((s) => s.buildMs)),
      loadOneMs: median(samples.map((s) => s.loadOneMs)),
      indexMs: median(samples.map((s) => s.indexMs)),
      searchMs: median(samples.map((s) => s.searchMs)),
    });
  }
  return rows;
}

if (import.meta.main) console.log(JSON.stringify(await catalogBuild(3), null, 2));
