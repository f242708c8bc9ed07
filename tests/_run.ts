/**
 * Runs hel in the test's own process: the whole command line (`cli/main.ts`: flags, plugins
 * from deno.json, the run, exit codes) with its own surroundings (environment, working
 * directory, stdin, captured stdout and stderr), no subprocess. Tests whose subject is not the
 * process itself (signals, the terminal, the binary) use this; it is much faster than
 * {@link runHel}.
 *
 * - {@link runHelInProcess}: a drop-in for `runHel` (same options, same result), e.g. against
 *   the HTTP scripted model given with `--base-url`.
 * - {@link testRun}: a temporary project, an in-process scripted model and a first run:
 *   `await using run = await testRun({ turns, flags, files })`.
 *
 * @module
 */
import { runCommandLine } from "../cli/main.ts";
import { type LoadedPlugin, loadPlugins, type PluginEntry } from "../agent/plugin_loader.ts";
import { replaceSurroundings } from "../kit/surroundings.ts";
import { concatBytes } from "../kit/mod.ts";
import type { ModelClient } from "../core/model.ts";
import type { ModelFactory } from "../cli/model_factory.ts";
import {
  type ScriptedClient,
  scriptedClient,
  type ScriptTurn,
} from "../fixtures/scripted_client.ts";
import {
  helEnvironment,
  type HelResult,
  REPO_ROOT,
  type RunHelOptions,
  type TempProject,
  tempProject,
} from "./_helpers.ts";

/** Options of {@link runHelInProcess}: those of `runHel`, and what to run instead of hel's. */
export interface InProcessOptions extends RunHelOptions {
  /** Plugin entries as in deno.json, relative to the repository (default: deno.json's). */
  plugins?: PluginEntry[];
  /** The model (default: the OpenAI-compatible client the flags describe). */
  model?: ModelClient;
  /** Builds the model from the flags instead (e.g. hel's client with short retry waits). */
  createModel?: ModelFactory;
}

/**
 * Runs `hel ...args` in this process, like `runHel` runs it in a child: HEL_API_KEY a dummy
 * key, HEL_HOME `<cwd>/../hel-home`, NO_COLOR set, stdin closed unless given. One at a time.
 */
export async function runHelInProcess(
  args: string[],
  options: InProcessOptions,
): Promise<HelResult> {
  const env = helEnvironment(options);
  const stdout: Uint8Array[] = [];
  const stderr: Uint8Array[] = [];
  const stream = (chunks: Uint8Array[]) => ({
    writeSync: (bytes: Uint8Array) => void chunks.push(bytes.slice()),
    isTerminal: () => false,
  });
  const stdin = options.stdin ?? "";
  const restore = replaceSurroundings({
    env: (name) => env[name],
    environment: () => ({ ...env }),
    cwd: () => options.cwd,
    stdin: {
      isTerminal: () => false,
      readable: () => ReadableStream.from([new TextEncoder().encode(stdin)]),
    },
    stdout: stream(stdout),
    stderr: stream(stderr),
  });
  let code: number;
  try {
    const plugins = options.plugins && await loadedPlugins(options.plugins);
    code = await runCommandLine(args, {
      ...(plugins ? { plugins } : {}),
      ...(options.model ? { createModel: () => options.model! } : {}),
      ...(options.createModel ? { createModel: options.createModel } : {}),
    });
  } finally {
    restore();
  }
  const text = (chunks: Uint8Array[]) => new TextDecoder().decode(concatBytes(chunks));
  return { code, stdout: text(stdout), stderr: text(stderr) };
}

function loadedPlugins(entries: PluginEntry[]): Promise<LoadedPlugin[]> {
  return loadPlugins(entries, new URL(`file://${REPO_ROOT}/`));
}

/** Options of {@link testRun}. */
export interface TestRunOptions {
  /** What the in-process scripted model answers, one turn per request. */
  turns?: ScriptTurn[];
  /** Arguments of the first run (after `hel`). */
  flags: string[];
  /** Files of the temporary project, by relative path. */
  files?: Record<string, string>;
  /** Plugin entries as in deno.json (default: deno.json's). */
  plugins?: PluginEntry[];
  /** Extra environment of every run. */
  env?: Record<string, string>;
}

/** A temporary project, its scripted model, and the result of the first run. */
export interface TestRun extends HelResult, AsyncDisposable {
  project: TempProject;
  model: ScriptedClient;
  /** Runs hel again in the same project with the same model. */
  hel(args: string[], options?: Partial<InProcessOptions>): Promise<HelResult>;
}

/** Sets up a project and a scripted model, runs `hel ...flags` once; removed when disposed. */
export async function testRun(options: TestRunOptions): Promise<TestRun> {
  const project = await tempProject(options.files);
  const model = scriptedClient(options.turns ?? []);
  const hel = (args: string[], extra: Partial<InProcessOptions> = {}) =>
    runHelInProcess(args, {
      cwd: project.project,
      model,
      ...(options.plugins ? { plugins: options.plugins } : {}),
      ...extra,
      env: { ...options.env, ...extra.env },
    });
  try {
    const first = await hel(options.flags);
    return { ...first, project, model, hel, [Symbol.asyncDispose]: project[Symbol.asyncDispose] };
  } catch (error) {
    await project[Symbol.asyncDispose]();
    throw error;
  }
}
