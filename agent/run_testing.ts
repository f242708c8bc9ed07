/**
 * For tests of a run in-process: a temporary project and `$HEL_HOME`, scripted models by id,
 * and a small probe plugin that shows what a plugin sees of the run (the session it is in, its
 * state across switches, its status lines). Holds no tests.
 *
 * @module
 */
import { DEFAULT_CONTEXT_FILES } from "./context_files.ts";
import { defineTool, type Plugin, z } from "../core/mod.ts";
import type { PluginContext } from "../core/plugin.ts";
import type { HelEvent } from "../core/events.ts";
import type { Approver } from "../core/permissions.ts";
import { createTrustFileStore } from "../kit/mod.ts";
import {
  type ScriptedClient,
  scriptedClient,
  type ScriptTurn,
} from "../fixtures/scripted_client.ts";
import { type Run, type RunSettings, startRun } from "./run.ts";
import { environmentWithoutSecrets } from "../kit/mod.ts";

/**
 * The probe plugin: a `whoami` tool answering the session id the host names at call time, a
 * state counting its calls (saved in the journal, restored on resume), one status line, and a
 * `big` tool whose result is large enough to be spilled.
 */
export function probePlugin(): Plugin {
  return {
    name: "probe",
    description: "shows what a plugin sees of the run",
    hooks: ["saveState", "restoreState", "status"],
    setup(host) {
      let calls = 0;
      host.registerTool(defineTool({
        name: "whoami",
        description: "Names the session.\nSecond line.",
        parameters: z.strictObject({}),
        toolClass: "read",
        category: "other",
        run: () =>
          Promise.resolve({ ok: true, text: `session ${host.session.id}, call ${++calls}` }),
      }));
      host.registerTool(defineTool({
        name: "big",
        description: "Answers 60,000 characters.",
        parameters: z.strictObject({}),
        toolClass: "read",
        category: "other",
        run: () => Promise.resolve({ ok: true, text: "line of text\n".repeat(5_000) }),
      }));
      return {
        saveState: () => ({ calls }),
        restoreState(state) {
          calls = (state as { calls: number }).calls;
        },
        status: () => [`${calls} calls so far`],
      };
    },
  };
}

/** A run in a temporary project, removed when disposed. */
export interface TestRunHandle extends AsyncDisposable {
  run: Run;
  project: string;
  helHome: string;
  /** The scripted client of each model id, made on first use; turns from `turns[id]`. */
  models: Map<string, ScriptedClient>;
  /** The model ids the run asked clients for, in order. */
  modelIds: string[];
  events: HelEvent[];
  /** Starts another run (a second hel) in the same project. */
  another(settings?: Partial<RunSettings>): Promise<Run & AsyncDisposable>;
}

/** Options of {@link startTestRun}. */
export interface TestRunOptions {
  turns?: Record<string, ScriptTurn[]>;
  settings?: Partial<RunSettings>;
  plugins?: () => Plugin[];
  files?: Record<string, string>;
  /** An existing project and `$HEL_HOME` to run in (kept when disposed). */
  at?: { project: string; helHome: string };
  /** Answers permission questions (default: approves every call). */
  approver?: Approver;
}

/** Starts a run on scripted models (model id `m` unless the settings say otherwise). */
export async function startTestRun(options: TestRunOptions = {}): Promise<TestRunHandle> {
  const root = options.at
    ? undefined
    : await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-run-" }));
  const project = options.at?.project ?? `${root}/project`;
  const helHome = options.at?.helHome ?? `${root}/home`;
  if (root) {
    await Deno.mkdir(project);
    await Deno.mkdir(helHome);
  }
  const removeRoot = () => root ? Deno.remove(root, { recursive: true }) : Promise.resolve();
  for (const [path, text] of Object.entries(options.files ?? {})) {
    await Deno.writeTextFile(`${project}/${path}`, text);
  }
  const models = new Map<string, ScriptedClient>();
  const modelIds: string[] = [];
  const events: HelEvent[] = [];
  const context: PluginContext = {
    project,
    helHome,
    flags: {},
    log: { warn: (text) => events.push({ type: "warning", text }), info: () => {} },
    interactive: false,
    ask: () => Promise.resolve(undefined),
    trust: createTrustFileStore(helHome, () => {}),
    childEnv: environmentWithoutSecrets,
  };
  const shutdowns: (() => Promise<void>)[] = [];
  const start = async (settings: Partial<RunSettings>) => {
    let shutdown = () => Promise.resolve();
    const run = await startRun({
      model: "m",
      baseUrl: "http://127.0.0.1:9/v1",
      access: "auto",
      env: false,
      contextFile: DEFAULT_CONTEXT_FILES,
      maxTurns: 5,
      spill: true,
      compaction: { at: 800_000, keepRecent: 150_000 },
      contextWindow: 1_000_000,
      ...options.settings,
      ...settings,
    }, {
      context,
      plugins: options.plugins?.() ?? [probePlugin()],
      approver: options.approver ?? { approve: () => Promise.resolve({ approval: "approved" }) },
      model: (_emit, id) => {
        modelIds.push(id);
        if (!models.has(id)) models.set(id, scriptedClient(options.turns?.[id] ?? []));
        return models.get(id)!;
      },
      emit: (event) => events.push(event),
      onShutdownReady: (ready) => shutdown = ready,
    });
    shutdowns.push(() => shutdown());
    return { run, shutdown: () => shutdown() };
  };
  try {
    const { run } = await start({});
    return {
      run,
      project,
      helHome,
      models,
      modelIds,
      events,
      async another(settings = {}) {
        const other = await start(settings);
        return Object.assign(other.run, { [Symbol.asyncDispose]: other.shutdown });
      },
      async [Symbol.asyncDispose]() {
        for (const shutdown of shutdowns) await shutdown();
        await removeRoot();
      },
    };
  } catch (error) {
    await removeRoot();
    throw error;
  }
}

/** A signal nobody aborts. */
export const NEVER = new AbortController().signal;
