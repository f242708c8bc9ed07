/**
 * Helpers for the MCP end-to-end tests: a project whose `.hel/mcp.json` names the fixture
 * server (or any command), trusted the way `hel trust mcp --sha256` would, the fixture's
 * message log, and a check that no server process outlived hel.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createTrustFileStore } from "../kit/mod.ts";
import type { RecordedRequest, ScriptedModel } from "../fixtures/scripted_model.ts";
import { runHelInProcess } from "./_run.ts";
import {
  eventually,
  type HelResult,
  REPO_ROOT,
  runHel,
  type RunHelOptions,
  type TempProject,
  tempProject,
  toolMessage,
} from "./_helpers.ts";

/** The fixture server (python3, standard library only). */
export const TEST_SERVER = `${REPO_ROOT}/fixtures/mcp/test_server.py`;
/**
 * The chapter's `inventory` server: the one the eval task mcp-port-lookup-01 ships (it must stay
 * inside the task's fixture), copied into test projects from there.
 */
export const INVENTORY_SERVER =
  `${REPO_ROOT}/evals/tasks/mcp-port-lookup-01/fixture/.hel/mcp/inventory.py`;

/** The Node fixture that fails to start (fixtures/mcp/node_fault_server.mjs). */
export const NODE_FAULT_SERVER = `${REPO_ROOT}/fixtures/mcp/node_fault_server.mjs`;

/** One server entry of `.hel/mcp.json`. */
export interface ServerEntry {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  timeout?: number;
  /** The server's allowlist of tool names (`*` matches any run of characters). */
  tools?: string[];
  /** False runs the server outside the sandbox. */
  sandbox?: boolean;
  /** A message from the server over this many bytes fails its call. */
  maxMessageBytes?: number;
  /** The least severe log level asked of the server (default "warning"). */
  logLevel?: string;
  /** True lets the server's readOnlyHint tools count as reads. */
  trustAnnotations?: boolean;
}

/** A temporary project with an MCP configuration and a marker in every server's environment. */
export interface McpProject extends TempProject {
  /** Set as HEL_TEST_MARKER in every configured server's environment. */
  marker: string;
  /** The fixture log of server `name` (see {@link fixtureServer}), inside the project. */
  logPath(name: string): string;
}

/**
 * Where fixture servers log: inside the project, the one place a sandboxed server may write
 * (its `/tmp` is private, the rest of the system read-only).
 */
export function logFolder(root: string): string {
  return `${root}/project/mcp-logs`;
}

let python: string | undefined;

/**
 * The interpreter `python3` names on PATH, as an absolute path, looked up once per test file:
 * behind a version manager's shim (pyenv's runs `pyenv exec` through bash) each fixture server
 * would cost about 0.1 s more CPU to start, and the suite starts over a hundred of them.
 */
function pythonInterpreter(): string {
  if (python === undefined) {
    const output = new Deno.Command("python3", {
      args: ["-c", "import sys; print(sys.executable)"],
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    const path = new TextDecoder().decode(output.stdout).trim();
    python = output.success && path.startsWith("/") ? path : "python3";
  }
  return python;
}

/** A fixture-server entry logging to `<project>/mcp-logs/<name>.jsonl`; `flags` pick its modes. */
export function fixtureServer(root: string, name: string, ...flags: string[]): ServerEntry {
  return {
    command: pythonInterpreter(),
    args: [TEST_SERVER, "--log", `${logFolder(root)}/${name}.jsonl`, ...flags],
  };
}

/**
 * Creates a project whose `.hel/mcp.json` holds `servers(root)` (each server's env gets the
 * marker), and trusts it unless `trusted` is false.
 */
export async function mcpProject(
  servers: (root: string) => Record<string, ServerEntry>,
  options: { trusted?: boolean; files?: Record<string, string> } = {},
): Promise<McpProject> {
  const project = await tempProject(options.files ?? {});
  await Deno.mkdir(logFolder(project.root));
  const marker = crypto.randomUUID();
  const entries = Object.fromEntries(
    Object.entries(servers(project.root)).map((
      [name, entry],
    ) => [name, { ...entry, env: { ...entry.env, HEL_TEST_MARKER: marker } }]),
  );
  await project.write(".hel/mcp.json", JSON.stringify({ servers: entries }, null, 2) + "\n");
  if (options.trusted !== false) await trustMcp(project);
  return Object.assign(project, {
    marker,
    logPath: (name: string) => `${logFolder(project.root)}/${name}.jsonl`,
  });
}

/** Records trust of the project's current `.hel/mcp.json` in the run's `$HEL_HOME`. */
export async function trustMcp(project: TempProject): Promise<void> {
  const store = createTrustFileStore(`${project.root}/hel-home`, (m) => assert.fail(m));
  const bytes = await Deno.readFile(`${project.project}/.hel/mcp.json`);
  await store.record("mcp", project.project, bytes);
}

/** Fast MCP timings for tests: short startup deadline and shutdown steps. */
export const FAST = ["--mcp-startup-timeout", "5", "--mcp-shutdown-wait", "0.3"];

/** Flags of a run against the scripted model. */
export function modelArgs(model: ScriptedModel, access = "auto"): string[] {
  return ["--base-url", model.url, "--model", "m", "--no-env", "--access", access];
}

/** A one-shot run whose servers may take a minute to start (for servers that never answer). */
export function slowStartRunArgs(model: ScriptedModel): string[] {
  return [
    ...modelArgs(model),
    "--tools",
    "read_file",
    "--mcp-startup-timeout",
    "60",
    "-i",
    "go",
  ];
}

/**
 * Waits until server `name` (a fixture started with `--grandchild`) has received `initialize`
 * and started its child: two live processes carry the project's marker.
 */
export async function untilServerStarting(project: McpProject, name: string): Promise<void> {
  await eventually(
    async () => (await receivedMethods(project.logPath(name))).includes("initialize"),
    "the server to receive initialize",
  );
  await eventually(() => processesWithMarker(project.marker).length === 2, "the server's child");
}

/** Runs one instruction with the given tools (default `read_file`) and fast MCP timings. */
export function helMcp(
  project: TempProject,
  model: ScriptedModel,
  extra: string[] = [],
  options: Partial<RunHelOptions> & { access?: string; tools?: string; run?: typeof runHel } = {},
) {
  return (options.run ?? runHel)(
    [
      ...modelArgs(model, options.access),
      "--tools",
      options.tools ?? "read_file",
      ...FAST,
      ...extra,
      "-i",
      "go",
    ],
    { cwd: project.project, ...options },
  );
}

/** {@link helMcp} in this process (see `_run.ts`), for tests whose subject is not the process. */
export function helMcpInProcess(...[project, model, extra, options]: Parameters<typeof helMcp>) {
  return helMcp(project, model, extra, { ...options, run: runHelInProcess });
}

/**
 * {@link helMcp} with `--record` into the project's `run/` folder, in this process unless
 * `options.run` says otherwise; expects exit 0. Gives the result and the MCP trace the record
 * keeps (`run/raw/mcp.jsonl`, one entry per event).
 */
export async function helMcpTraced(
  ...[project, model, extra = [], options]: Parameters<typeof helMcp>
): Promise<{ result: HelResult; trace: Record<string, unknown>[] }> {
  const result = await helMcp(
    project,
    model,
    [...extra, "--record", `${project.root}/run/record.json`],
    { run: runHelInProcess, ...options },
  );
  assert.equal(result.code, 0, result.stderr);
  return { result, trace: await readLog(`${project.root}/run/raw/mcp.jsonl`) };
}

/** Every JSON line of a log file; an absent file is an empty log. */
export async function readLog(path: string): Promise<Record<string, unknown>[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
}

/**
 * The messages a server received, from a log of `{"direction", "message"}` lines (the format
 * of the inventory server's `inventory-events.jsonl`).
 */
export async function receivedMessages(path: string): Promise<Record<string, unknown>[]> {
  return (await readLog(path)).filter((entry) => entry.direction === "received")
    .map((entry) => entry.message as Record<string, unknown>);
}

/** The methods of the messages the fixture received, in order. */
export async function receivedMethods(path: string): Promise<string[]> {
  return (await readLog(path)).flatMap((m) => typeof m.method === "string" ? [m.method] : []);
}

/**
 * The `tools/call` params the fixture received, without the `_meta` (progress token) hel adds to
 * every call; mcp_progress_test.ts checks that.
 */
export async function receivedCalls(path: string): Promise<Record<string, unknown>[]> {
  return (await readLog(path)).filter((m) => m.method === "tools/call").map((m) => {
    const { _meta: _, ...params } = m.params as Record<string, unknown>;
    return params;
  });
}

/** The system message of a request. */
export function systemText(request: RecordedRequest): string {
  const first = request.messages[0];
  return first?.role === "system" ? String(first.content) : "";
}

/** The tool definition named `name` in a request, if offered. */
// deno-lint-ignore no-explicit-any
export function offered(request: RecordedRequest, name: string): any {
  const tools = Array.isArray(request.body.tools) ? request.body.tools : [];
  // deno-lint-ignore no-explicit-any
  return tools.find((tool: any) => tool?.function?.name === name);
}

/**
 * Pids of live (not zombie) processes whose environment holds HEL_TEST_MARKER=`marker`:
 * the servers a test started and anything they started in turn. The sandbox's own processes
 * (bubblewrap outside and as the sandbox's init) carry the server's environment too; they
 * count only with `withSandbox`.
 */
export function processesWithMarker(marker: string, withSandbox = false): number[] {
  const needle = new TextEncoder().encode(`HEL_TEST_MARKER=${marker}`);
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      const environ = Deno.readFileSync(`/proc/${entry.name}/environ`);
      if (!contains(environ, needle)) continue;
      if (withSandbox || !stat.startsWith(`${entry.name} (bwrap)`)) found.push(Number(entry.name));
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
  return found;
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) continue outer;
    }
    return true;
  }
  return false;
}

/**
 * Fails when a process of the project's servers is still alive after hel's run ended. The
 * kernel ends a sandbox's pid namespace and reaps its processes a moment after hel has seen the
 * server's group go, so this allows two seconds for the last of them before it fails.
 */
export async function assertNoServerLeft(project: McpProject): Promise<void> {
  let left = processesWithMarker(project.marker, true);
  for (let tries = 0; left.length > 0 && tries < 40; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = processesWithMarker(project.marker, true);
  }
  assert.deepEqual(left, [], `server processes outlived hel: ${left.join(", ")}`);
}

export { eventually, runHel, toolMessage };
