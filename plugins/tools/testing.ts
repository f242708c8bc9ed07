/**
 * Test support for the tools plugin's unit tests: a temporary project with a `.hel` folder,
 * a session spill folder, a second session and a folder outside the project.
 *
 * @module
 */
import type { Tool, ToolResult } from "../../core/mod.ts";
import { findSystemProgram } from "../../kit/mod.ts";
import type { Workspace } from "./workspace/confinement.ts";

/** A temporary layout; removed when disposed (`await using`). */
export interface TestWorkspace extends AsyncDisposable {
  /** Holds project/ and outside/. */
  root: string;
  project: string;
  outside: string;
  workspace: Workspace;
  /** The spill folder of another session of the same project. */
  otherSpillDir: string;
  write(path: string, text: string | Uint8Array): Promise<void>;
  read(path: string): Promise<string>;
}

/** Creates the layout with `files` written relative to the project. */
export async function testWorkspace(files: Record<string, string> = {}): Promise<TestWorkspace> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-tools-" }));
  const project = `${root}/project`;
  const outside = `${root}/outside`;
  const spillDir = `${project}/.hel/sessions/current/spill`;
  const otherSpillDir = `${project}/.hel/sessions/other/spill`;
  await Deno.mkdir(spillDir, { recursive: true });
  await Deno.mkdir(otherSpillDir, { recursive: true });
  await Deno.mkdir(outside);
  await Deno.writeTextFile(`${project}/.hel/secret.txt`, "canary-secret\n");
  await Deno.writeTextFile(`${outside}/outside.txt`, "outside-data\n");
  const write = async (path: string, data: string | Uint8Array) => {
    const full = path.startsWith("/") ? path : `${project}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    if (typeof data === "string") await Deno.writeTextFile(full, data);
    else await Deno.writeFile(full, data);
  };
  for (const [path, text] of Object.entries(files)) await write(path, text);
  return {
    root,
    project,
    outside,
    workspace: { project, spillDir },
    otherSpillDir,
    write,
    read: (path) => Deno.readTextFile(path.startsWith("/") ? path : `${project}/${path}`),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

/**
 * Runs a tool the way the tool-call path does (no permission step): arguments that do not fit
 * are a failure listing the problems, `; `-separated, and the tool does not run.
 */
export function call(tool: Tool, args: Record<string, unknown>): Promise<ToolResult> {
  const checked = tool.checkArguments?.(args) ?? { ok: true, args };
  if (!checked.ok) return Promise.resolve({ ok: false, text: checked.problems.join("; ") });
  return tool.run(checked.args, { callId: "call_test", signal: new AbortController().signal });
}

/** True when bubblewrap is installed, so the sandbox tests run rather than skip. */
export function hasBwrap(): boolean {
  return Deno.build.os === "linux" && findSystemProgram("bwrap") !== undefined;
}

/**
 * Runs git on the host for building test repositories, without the user's or the system's
 * configuration; throws with git's message when it fails. Returns stdout.
 */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const output = await new Deno.Command("git", {
    args: ["-c", "user.name=hel test", "-c", "user.email=test@hel.invalid", ...args],
    cwd,
    env: { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", LANG: "C" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  if (!output.success) {
    throw new Error(`git ${args.join(" ")} failed: ${decoder.decode(output.stderr)}`);
  }
  return decoder.decode(output.stdout);
}

/**
 * A shell command that starts threads (each counts like a process against a process limit)
 * until refused or `count` run, then prints `started <n>`.
 */
export function threadProbe(count: number): string {
  return `python3 -c '
import threading
threading.stack_size(65536)
stop = threading.Event()
n = 0
try:
    for _ in range(${count}):
        threading.Thread(target=stop.wait).start()
        n += 1
except RuntimeError:
    pass
stop.set()
print("started", n)
'`;
}
