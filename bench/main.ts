/**
 * `deno task bench [--runs N]`: hel's own costs, offline, every figure side by side from one
 * run — cold start, MCP start with 1 and 10 servers, per-call overhead, per hook call
 * (outside and inside the sandbox), context cost with
 * deferred versus eager MCP loading, the port task at 10 to 10,000 MCP tools (eager, listed,
 * searched) with search quality, 50 MCP servers, receiving a 1 to 50 MiB MCP result, peak
 * memory, the session journal's cost per entry,
 * listing 10 to 1,000 sessions (`hel sessions`), permission rules (10 to 1,000 rules, 1 to 100
 * commands in a line), the
 * chat's key-to-screen latency and drawing a streamed markdown answer in the chat. hel runs as
 * a subprocess against the
 * scripted model and the benchmark's fixture MCP server (bench/fixture_server.py).
 *
 * Writes `bench/out/bench.json` and `bench/out/bench.md` (git-ignored) and prints the table.
 * The built binary (`HEL_BIN`, else `dist/hel`) is measured beside the source when present.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import denoJson from "../deno.json" with { type: "json" };
import { callOverhead } from "./call_overhead.ts";
import { coldStart } from "./cold_start.ts";
import { hookOverhead } from "./hook_overhead.ts";
import { contextCost } from "./context_cost.ts";
import { catalogueCost } from "./catalogue_cost.ts";
import { manyServers } from "./many_servers.ts";
import { builtBinary, fromSource } from "./hel_process.ts";
import { gitWatchCost } from "./git_watch.ts";
import { journalCost } from "./journal_cost.ts";
import { sessionsList } from "./sessions_list.ts";
import { permissionRules } from "./permission_rules.ts";
import { chatKeyLatency } from "./chat_key_latency.ts";
import { inputLatency } from "./input_latency.ts";
import { markdownRender } from "./markdown_render.ts";
import { mcpStart } from "./mcp_start.ts";
import { mcpFraming } from "./mcp_framing.ts";
import { memory } from "./memory.ts";
import { type BenchResults, formatReport } from "./report.ts";

const OUT = fileURLToPath(new URL("./out/", import.meta.url));

const USAGE = "usage: deno task bench [--runs N]   (N repeats of each timing, default 7)";
let values: { runs: string; help?: boolean };
try {
  ({ values } = parseArgs({
    args: Deno.args,
    options: { runs: { type: "string", default: "7" }, help: { type: "boolean", short: "h" } },
  }));
} catch (error) {
  // parseArgs throws a TypeError for an unknown option or a missing value: say so, not a trace.
  console.error(`bench: ${(error as Error).message}\n${USAGE}`);
  Deno.exit(2);
}
if (values.help) {
  console.log(USAGE);
  Deno.exit(0);
}
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`bench: --runs must be a positive whole number, got ${values.runs}\n${USAGE}`);
  Deno.exit(2);
}

const started = performance.now();
const loadAtStart = Deno.loadavg()[0];
const step = (name: string) => console.error(`bench: ${name} …`);
const source = fromSource();
const binary = await builtBinary();

step("cold start");
const cold = [await coldStart(source, runs)];
if ("command" in binary) cold.push(await coldStart(binary, runs));
step("MCP start (0, 1 and 10 servers, sandboxed and not)");
const start = await mcpStart(source, Math.max(3, Math.ceil(runs / 2)));
step("per-call overhead");
const call = await callOverhead(source, 3);
step("per hook call (none, outside and inside the sandbox)");
const hook = await hookOverhead(source, 3);
step("context cost (10, 100, 1000 tools; deferred and eager)");
const context = await contextCost(source);
step("the port task at 10 to 10,000 tools (eager, list, search) and search quality");
const catalogue = await catalogueCost(source);
step("50 MCP servers");
const many = await manyServers(source, 3);
step("peak memory");
const mem = await memory(source, 3);
step("looking for planted git repositories (10,000 and 100,000 files)");
const gitWatch = await gitWatchCost(3);
step("receiving a large MCP result (1, 10 and 50 MiB)");
const framing = await mcpFraming(Math.max(3, Math.ceil(runs / 2)));
step("session journal (10, 1,000 and 100,000 entries)");
const journal = await journalCost(runs);
step("hel sessions (10, 100 and 1,000 sessions)");
const sessions = await sessionsList(runs);
step("permission rules (10, 100 and 1,000 rules; 1, 10 and 100 commands in a line)");
const rules = await permissionRules(runs);
step("input box, key to screen");
const input = await inputLatency();
step("the whole chat on a pseudo-terminal, key to screen");
const chatKeys = await chatKeyLatency(source);
step("markdown rendering (10 KB, 100 KB and 1 MB answers, whole and streamed)");
const markdown = markdownRender(runs);

const results: BenchResults = {
  date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC",
  machine: {
    os: Deno.build.os,
    arch: Deno.build.arch,
    cpus: navigator.hardwareConcurrency,
    deno: Deno.version.deno,
    hel: denoJson.version,
    loadAverage: loadAtStart,
  },
  ...("reason" in binary ? { binarySkipped: binary.reason } : {}),
  coldStart: cold,
  mcpStart: start,
  callOverhead: call,
  hookOverhead: hook,
  contextCost: context,
  catalogueCost: catalogue,
  manyServers: many,
  memory: mem,
  gitWatch,
  journal,
  mcpFraming: framing,
  sessionsList: sessions,
  permissionRules: rules,
  inputLatency: input,
  chatKeyLatency: chatKeys,
  markdown,
  durationS: (performance.now() - started) / 1000,
};
const report = formatReport(results);
await Deno.mkdir(OUT, { recursive: true });
await Deno.writeTextFile(`${OUT}bench.json`, JSON.stringify(results, null, 2) + "\n");
await Deno.writeTextFile(`${OUT}bench.md`, report);
console.log(report);
console.error(`bench: wrote ${OUT}bench.json and ${OUT}bench.md`);
