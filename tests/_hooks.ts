/**
 * Helpers for the hooks and trust end-to-end tests: writing `.hel/hooks.json`, trusting it
 * the way a user would, and the question hel asks to review it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createTrustFileStore } from "../kit/mod.ts";
import type { ScriptedModel } from "../fixtures/scripted_model.ts";
import { pause, runHel, type TempProject, toolMessage } from "./_helpers.ts";

/** One hook handler of `.hel/hooks.json`. */
export const command = (text: string, extra: Record<string, unknown> = {}) => ({
  type: "command",
  command: text,
  ...extra,
});

/** A matcher group. */
export const group = (matcher: string | undefined, ...hooks: unknown[]) => ({
  ...(matcher !== undefined ? { matcher } : {}),
  hooks,
});

/** The model's call the hook tests guard: replace "old" with "new" in a.txt. */
export const EDIT = {
  id: "call_edit",
  name: "search_replace",
  arguments: { path: "a.txt", search: "old", replace: "new" },
};

/** The text of a hooks.json with these groups. */
export function hooksJson(pre: unknown[], post: unknown[] = []): string {
  return JSON.stringify({ hooks: { PreToolUse: pre, PostToolUse: post } }, null, 2) + "\n";
}

/** Records trust of the project's current hooks.json directly in the run's `$HEL_HOME`. */
export async function trustHooks(project: TempProject): Promise<void> {
  const store = createTrustFileStore(`${project.root}/hel-home`, (m) => assert.fail(m));
  const bytes = await Deno.readFile(`${project.project}/.hel/hooks.json`);
  await store.record("hooks", project.project, bytes);
}

/** Flags of a non-interactive run against the scripted model with every tool allowed. */
export function baseArgs(model: ScriptedModel): string[] {
  return ["--base-url", model.url, "--model", "m", "--no-env", "--access", "auto"];
}

/** Runs one instruction without a terminal (in a child process unless `run` says otherwise). */
export function helRun(
  project: TempProject,
  model: ScriptedModel,
  extra: string[] = [],
  run: typeof runHel = runHel,
) {
  return run([...baseArgs(model), ...extra, "-i", "go"], { cwd: project.project });
}

/** True when the file exists. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Waits briefly for a killed process to finish dying (a zombie counts as ended). */
export async function processEnds(pid: number): Promise<boolean> {
  const ended = async () => {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
    return stat === "" || stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z";
  };
  for (let i = 0; i < 100 && !await ended(); i++) await pause(20);
  return await ended();
}

/**
 * A `sleep` duration no other process on the machine uses, to find the ones a hook started
 * with `pgrep` (inside the sandbox's pid namespace `$!` means nothing to the test).
 */
export const uniqueSleep = () => `${300 + Math.floor(Math.random() * 1e6) / 1e7}`;

/** Waits briefly until no process runs `sleep <seconds>`; true when none is left. */
export async function noSleepLeft(seconds: string): Promise<boolean> {
  const left = async () => {
    const found = await new Deno.Command("pgrep", { args: ["-f", `^sleep ${seconds}$`] }).output();
    return found.code === 0;
  };
  for (let i = 0; i < 100 && await left(); i++) await pause(20);
  return !await left();
}

/** The review question hel asks for hooks. */
export const HOOKS_QUESTION = "Trust this project's hook configuration? [y/N]";

export { runHel, toolMessage };
