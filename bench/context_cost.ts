/**
 * Context cost: what hel sends the model with 10, 100 and 1,000 MCP tools available, with
 * deferred loading (names in the system message, `load_mcp_tool`, definitions from then on)
 * versus the same harness sending every definition up front (`--mcp-eager`). For each: the
 * first request, and the whole load → call → edit trajectory (every request summed, since
 * each request carries the conversation so far and is billed whole).
 *
 * @module
 */
import { benchProject, expectExit, type HelCommand, modelArgs, runTimed } from "./hel_process.ts";
import { configureServers } from "./mcp_setup.ts";
import {
  expectConsumed,
  type PlainTurn,
  timedModel,
  type TrajectorySizes,
  trajectorySizes,
} from "./scripted.ts";

const TOOL = "mcp__bench__tool_0003";

/** Sizes of one trajectory (bytes of the JSON request bodies; tokens estimated as chars/4). */
export interface ContextRow extends TrajectorySizes {
  tools: number;
  mode: "deferred" | "eager";
}

function script(mode: ContextRow["mode"]): PlainTurn[] {
  const call = { toolCalls: [{ name: TOOL, arguments: { query: "release notes", limit: 5 } }] };
  const edit = {
    toolCalls: [{
      name: "search_replace",
      arguments: { path: "notes.txt", search: "status: draft", replace: "status: final" },
    }],
  };
  const load = { toolCalls: [{ name: "load_mcp_tool", arguments: { names: [TOOL] } }] };
  const done = { text: "Marked the notes final after checking the release records." };
  return mode === "deferred" ? [load, call, edit, done] : [call, edit, done];
}

/** One trajectory; its sizes are exact (no timing), so one run per cell suffices. */
async function trajectory(hel: HelCommand, tools: number, mode: ContextRow["mode"]) {
  await using project = await benchProject({ "notes.txt": "# Notes\nstatus: draft\n" });
  await configureServers(project.project, project.home, {
    count: 1,
    toolsPerServer: tools,
    delayMs: 0,
  });
  await using model = timedModel(script(mode));
  const run = await runTimed(hel, [
    ...modelArgs(model.url),
    // Deferred is the listed catalogue at every size (search mode has its own bench).
    ...(mode === "eager" ? ["--mcp-eager"] : ["--mcp-catalogue", "list"]),
    "check the release records, then mark the notes final",
  ], { cwd: project.project, home: project.home });
  const what = `${mode} trajectory with ${tools} tools`;
  expectExit(run, 0, what);
  expectConsumed(model, what);
  const edited = await Deno.readTextFile(`${project.project}/notes.txt`);
  if (!edited.includes("status: final")) throw new Error(`${what}: the edit did not happen`);
  const called = model.arrivals.some((arrival) =>
    arrival.request.messages.some((m) =>
      m.role === "tool" && String(m.content).includes("tool_0003")
    )
  );
  if (!called) throw new Error(`${what}: the MCP tool's answer never reached the model`);
  return { tools, mode, ...trajectorySizes(model.arrivals) };
}

/** Every cell of the comparison, from the same code and the same run of the benchmark. */
export async function contextCost(hel: HelCommand, sizes = [10, 100, 1000]): Promise<ContextRow[]> {
  const rows: ContextRow[] = [];
  for (const tools of sizes) {
    rows.push(await trajectory(hel, tools, "deferred"));
    rows.push(await trajectory(hel, tools, "eager"));
  }
  return rows;
}
