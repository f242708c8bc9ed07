/**
 * Shared set-up of the eval tests: a temporary evals folder with the h10 task and a copy of the
 * h10 lab, the real `deno task eval` as a subprocess, and the scripted turns of the h10 task.
 */
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import type { ScriptTurn } from "../fixtures/scripted_model.ts";
import { REPO_ROOT } from "../tests/_helpers.ts";
import { copyTree } from "./workspace.ts";

/** The h10 task, the only task the tests run. */
export const TASK = "mcp-port-lookup-01";
/** The MCP tool that knows the port, as hel names it. */
export const LOOKUP = "mcp__inventory__lookup_port";

/** A temporary evals folder and results folder, removed on dispose. */
export interface EvalDirs extends AsyncDisposable {
  root: string;
  evals: string;
  results: string;
}

/** A temporary evals folder with the h10 task and a copy of the h10 lab, changed by `edit`. */
export async function evalDirs(
  edit: (lab: Record<string, unknown>) => void = () => {},
): Promise<EvalDirs> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-eval-test-" }));
  const evals = `${root}/evals`;
  await copyTree(`${REPO_ROOT}/evals/tasks/${TASK}`, `${evals}/tasks/${TASK}`);
  const lab = parseYaml(await Deno.readTextFile(`${REPO_ROOT}/evals/labs/h10.yaml`));
  lab.repetitions = 1;
  edit(lab);
  await Deno.mkdir(`${evals}/labs`, { recursive: true });
  await Deno.writeTextFile(`${evals}/labs/h10.yaml`, stringifyYaml(lab));
  return {
    root,
    evals,
    results: `${root}/results`,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

/** A lab edit keeping only the condition called `name`. */
export function onlyCondition(name: string) {
  return (lab: Record<string, unknown>) => {
    lab.conditions = (lab.conditions as { name: string }[]).filter((c) => c.name === name);
  };
}

/** Runs `evals/main.ts` with `args` on the temporary folders; returns code and output. */
export async function evalCli(args: string[], dirs: EvalDirs, env: Record<string, string> = {}) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      `${REPO_ROOT}/evals/main.ts`,
      ...args,
      "--evals-dir",
      dirs.evals,
      "--results-dir",
      dirs.results,
    ],
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/** The folder of a run of the h10 task. */
export function runDir(dirs: EvalDirs, condition: string, repetition = 1) {
  return `${dirs.results}/h10/h10-${TASK}-${condition}-${String(repetition).padStart(2, "0")}`;
}

/** A JSON file, parsed. */
// deno-lint-ignore no-explicit-any
export async function readJson(path: string): Promise<any> {
  return JSON.parse(await Deno.readTextFile(path));
}

/** What the inventory server logged receiving in a run: methods, and tools/call with the tool. */
export async function receivedByServer(dir: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${dir}/raw/mcp-server-events.jsonl`);
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line))
    .filter((line) => line.direction === "received")
    .map((line) =>
      line.message.method === "tools/call"
        ? `tools/call ${line.message.params.name}`
        : line.message.method
    );
}

/** Files under `dir` whose text contains `needle`. */
export async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await filesContaining(path, needle));
    else if (entry.isFile && (await Deno.readTextFile(path)).includes(needle)) found.push(path);
  }
  return found;
}

/** True when something is at `path`. */
export async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** A scripted turn that calls one tool. */
export const call = (name: string, args: unknown): ScriptTurn => ({
  toolCalls: [{ name, arguments: args }],
});
/** The scripted edit of config.ini to `port`. */
export const editPort = (port: string) =>
  call("search_replace", { path: "config.ini", search: "port=7000", replace: `port=${port}` });

/** The chapter's path: load, look up, edit, answer. */
export const THROUGH_MCP: ScriptTurn[] = [
  call("load_mcp_tool", { names: [LOOKUP] }),
  call(LOOKUP, { service: "api" }),
  editPort("8437"),
  { text: "config.ini now has port=8437." },
];

/** Check id → result of a verdict. */
export const checkResults = (verdict: { checks: { id: string; result: string }[] }) =>
  Object.fromEntries(verdict.checks.map((check) => [check.id, check.result]));
