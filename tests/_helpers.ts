/**
 * Helpers for end-to-end tests: run the real CLI (`main.ts`) as a subprocess in a temporary
 * project, against the scripted model.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import {
  type ScriptedModel,
  type ScriptTurn,
  startScriptedModel,
} from "../fixtures/scripted_model.ts";
import type { ScriptedRequests } from "../fixtures/script.ts";

/** The repository root (where main.ts lives). */
export const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url)).replace(/\/$/, "");
/** Absolute path of main.ts. */
export const MAIN_TS = `${REPO_ROOT}/main.ts`;

/** What a finished hel process (or another command) left behind. */
export interface HelResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link runHel}. */
export interface RunHelOptions {
  cwd: string;
  /** Extra environment; HEL_API_KEY defaults to a dummy key, HEL_HOME to `<cwd>/../home`. */
  env?: Record<string, string>;
  /** Text piped to stdin (default: none, stdin closed). */
  stdin?: string;
  /** Drop these variables from the inherited environment. */
  unset?: string[];
}

/**
 * The environment of a test's hel: this process's, with a dummy HEL_API_KEY, HEL_HOME
 * `<cwd>/../hel-home` and NO_COLOR, then `options.env`, without `options.unset`.
 */
export function helEnvironment(options: RunHelOptions): Record<string, string> {
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    HEL_API_KEY: "test-key",
    HEL_HOME: `${options.cwd}/../hel-home`,
    NO_COLOR: "1",
    ...options.env,
  };
  for (const name of options.unset ?? []) delete env[name];
  return env;
}

/** Runs `deno run -A main.ts ...args` and collects its output. */
export function runHel(args: string[], options: RunHelOptions): Promise<HelResult> {
  return runCommand(Deno.execPath(), ["run", "--allow-all", MAIN_TS, ...args], {
    cwd: options.cwd,
    env: helEnvironment(options),
    clearEnv: true,
    stdin: options.stdin,
  });
}

/** Options of {@link runCommand}: Deno's, but `stdin` is the text piped in (none: closed). */
export type RunCommandOptions =
  & Omit<Deno.CommandOptions, "args" | "stdin" | "stdout" | "stderr">
  & { stdin?: string };

/** Runs `command` to its end and collects its exit code and its output, decoded. */
export async function runCommand(
  command: string,
  args: string[],
  options: RunCommandOptions = {},
): Promise<HelResult> {
  const { stdin, ...rest } = options;
  const child = new Deno.Command(command, {
    ...rest,
    args,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/**
 * Starts `deno run -A main.ts ...args` in the project as a child the test can signal or kill:
 * stdin closed, stdout and stderr piped, `$HEL_HOME` the project's `hel-home/`.
 */
export function spawnHel(project: TempProject, args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN_TS, ...args],
    cwd: project.project,
    env: { HEL_API_KEY: "test-key", HEL_HOME: `${project.root}/hel-home`, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** The content of the tool message answering `callId` in the model's later requests. */
export function toolMessage(model: ScriptedRequests, callId: string): string {
  for (const request of model.requests) {
    const found = request.messages.find((m) => m.role === "tool" && m.tool_call_id === callId);
    if (found) return found.content as string;
  }
  assert.fail(`no tool message answers ${callId}`);
}

/** Resolves after `ms` milliseconds. */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (up to ~20 s) until `check` holds; fails naming `what` otherwise. */
export async function eventually(check: () => Promise<boolean> | boolean, what: string) {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await pause(50);
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** A temporary folder holding `project/` (the working directory) and `hel-home/`. */
export interface TempProject extends AsyncDisposable {
  root: string;
  project: string;
  /** Writes a file relative to the project, creating folders. */
  write(path: string, text: string): Promise<void>;
  read(path: string): Promise<string>;
}

/** Creates a temporary project, removed when disposed (`await using`). */
export async function tempProject(files: Record<string, string> = {}): Promise<TempProject> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-test-" }));
  const project = `${root}/project`;
  await Deno.mkdir(project);
  await Deno.mkdir(`${root}/hel-home`);
  const write = async (path: string, text: string) => {
    const full = `${project}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  };
  for (const [path, text] of Object.entries(files)) await write(path, text);
  return {
    root,
    project,
    write,
    read: (path) => Deno.readTextFile(`${project}/${path}`),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

/** A scripted model that closes itself (`await using`). */
export function scriptedModel(
  turns: ScriptTurn[],
  options?: Parameters<typeof startScriptedModel>[1],
): ScriptedModel & AsyncDisposable {
  const model = startScriptedModel(turns, options);
  return Object.assign(model, { [Symbol.asyncDispose]: () => model.close() });
}
