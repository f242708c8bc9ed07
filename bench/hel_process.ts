/**
 * Running hel for the benchmark: from source (`deno run main.ts`) or as the built binary, in a
 * throw-away project, timed from spawn to exit, with the pid handed out for memory probes.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url)).replace(/\/$/, "");

/** How to start hel. */
export interface HelCommand {
  label: "source" | "binary";
  command: string;
  /** Arguments before hel's own. */
  prefix: string[];
}

/** hel from source, the way `deno task hel` runs it. */
export function fromSource(): HelCommand {
  return {
    label: "source",
    command: Deno.execPath(),
    prefix: ["run", "--allow-all", `${ROOT}/main.ts`],
  };
}

/**
 * The built binary: `HEL_BIN`, else `dist/hel` when it exists. A file that does not answer
 * `--version` is not used. Returns the reason when there is none.
 */
export async function builtBinary(): Promise<HelCommand | { reason: string }> {
  const path = Deno.env.get("HEL_BIN") ??
    `${ROOT}/dist/hel${Deno.build.os === "windows" ? ".exe" : ""}`;
  if (!(await Deno.stat(path).then((info) => info.isFile, () => false))) {
    return { reason: `no binary at ${path} (build it with deno task build, or set HEL_BIN)` };
  }
  const output = await new Deno.Command(path, {
    args: ["--version"],
    stdout: "piped",
    stderr: "null",
  })
    .output().catch(() => undefined);
  if (!output?.success) return { reason: `${path} does not answer --version` };
  return { label: "binary", command: path, prefix: [] };
}

/** A temporary project folder and HEL_HOME, removed on dispose. */
export interface BenchProject extends AsyncDisposable {
  project: string;
  home: string;
}

/** Creates a project holding `files` (relative paths) and an empty HEL_HOME beside it. */
export async function benchProject(files: Record<string, string> = {}): Promise<BenchProject> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-bench-" }));
  const project = `${root}/project`;
  const home = `${root}/home`;
  await Deno.mkdir(project);
  await Deno.mkdir(home);
  for (const [path, text] of Object.entries(files)) {
    const full = `${project}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  return {
    project,
    home,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

/** The environment hel runs with: this one (Deno's cache stays where it is) with a dummy key. */
export function helEnv(home: string): Record<string, string> {
  const env = Deno.env.toObject();
  for (const name of ["DEEPSEEK_API_KEY", "HEL_MODEL", "HEL_BASE_URL"]) delete env[name];
  return { ...env, HEL_HOME: home, HEL_API_KEY: "bench-key-not-secret", NO_COLOR: "1" };
}

/** The flags that point hel at the scripted model and let tools run without questions. */
export function modelArgs(url: string): string[] {
  return ["--base-url", url, "--model", "bench", "--access", "auto"];
}

/** A finished run with its timing (performance.now() of this process). */
export interface TimedRun {
  code: number;
  stdout: string;
  stderr: string;
  pid: number;
  startedAt: number;
  endedAt: number;
}

/** Runs hel once; `onSpawn` hears its pid as soon as it exists. */
export async function runTimed(
  hel: HelCommand,
  args: string[],
  options: { cwd: string; home: string; onSpawn?: (pid: number) => void },
): Promise<TimedRun> {
  const startedAt = performance.now();
  const child = new Deno.Command(hel.command, {
    args: [...hel.prefix, ...args],
    cwd: options.cwd,
    env: helEnv(options.home),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  options.onSpawn?.(child.pid);
  const output = await child.output();
  const endedAt = performance.now();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
    pid: child.pid,
    startedAt,
    endedAt,
  };
}

/** Throws with hel's stderr when a run did not end as expected. */
export function expectExit(run: TimedRun, code: number, what: string): void {
  if (run.code !== code) {
    throw new Error(
      `${what}: hel exited ${run.code} (expected ${code})\n${run.stderr.slice(-2000)}`,
    );
  }
}
