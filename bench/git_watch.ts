/**
 * What looking for planted git repositories costs (kit/sandbox/planted_git.ts): the reading
 * of the whole tree when hel starts, and the look after each sandboxed program, in projects of
 * 10,000 and 100,000 files (10 a folder, 10 folders a folder, and a `.git`). The look runs
 * once with nothing changed, and once after a nested repository appeared.
 *
 * @module
 */
import { GitWatch } from "../kit/mod.ts";
import { CLOCK_MARGIN_MS } from "../kit/sandbox/tree_changes.ts";
import { median, ms, repeat } from "./stats.ts";
import { int, table } from "./table.ts";

/** Figures for one project size (medians, ms). */
export interface GitWatchRow {
  files: number;
  folders: number;
  /** Reading the tree when hel starts (in the background, before the first program). */
  startMs: number;
  /** The look after a program that changed nothing. */
  lookMs: number;
  /** The look after a program that created a repository (`git init` of a nested folder). */
  lookAfterRepositoryMs: number;
  /**
   * CPU time of one look with nothing changed (user and system, from /proc over 20 looks):
   * unlike wall time, hardly moved by other work on a busy machine. Undefined without /proc.
   */
  lookCpuMs?: number;
}

/** This process's CPU time so far in ms, from /proc (Linux), or undefined. */
function cpuMs(): number | undefined {
  try {
    const fields = Deno.readTextFileSync("/proc/self/stat").replace(/^.*\) /, "").split(" ");
    // utime and stime, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Files in each project measured. */
export const SIZES = [10_000, 100_000];

/** Builds a tree of `files` files, ten a folder, folders ten wide; returns the folder count. */
async function build(root: string, files: number): Promise<number> {
  const folders = Math.ceil(files / 10);
  for (let folder = 0; folder < folders; folder++) {
    const path = `${root}/${Math.floor(folder / 1000)}/${Math.floor(folder / 100) % 10}/` +
      `${Math.floor(folder / 10) % 10}/d${folder}`;
    await Deno.mkdir(path, { recursive: true });
    for (let file = 0; file < 10; file++) await Deno.writeTextFile(`${path}/f${file}.js`, "x");
  }
  await git(root, "init", "-q");
  let count = 0;
  for (const _ of walk(root)) count++;
  return count;
}

function* walk(dir: string): Generator<string> {
  yield dir;
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.isDirectory) yield* walk(`${dir}/${entry.name}`);
  }
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const output = await new Deno.Command("git", { args, cwd, stdout: "null", stderr: "piped" })
    .output();
  if (!output.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(output.stderr)}`);
  }
}

/** Measures each size `runs` times. */
export async function gitWatchCost(runs: number): Promise<GitWatchRow[]> {
  const rows: GitWatchRow[] = [];
  for (const files of SIZES) {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-bench-git-" }));
    try {
      const folders = await build(root, files);
      // A project's folders were written before hel starts, not within the clock margin.
      await new Promise((resolve) => setTimeout(resolve, CLOCK_MARGIN_MS + 1_500));
      const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
      const times = await repeat(runs, async (run) => {
        let started = performance.now();
        const watch = new GitWatch({ project: root, env });
        await watch.readOnly();
        const startMs = performance.now() - started;
        started = performance.now();
        await watch.check();
        const lookMs = performance.now() - started;
        await git(root, "init", "-q", `0/0/0/d0/repository-${run}`);
        started = performance.now();
        await watch.check();
        const lookAfterRepositoryMs = performance.now() - started;
        // Clear of the clock margin, so the looks below find nothing new.
        await new Promise((resolve) => setTimeout(resolve, CLOCK_MARGIN_MS + 1_500));
        const cpu = cpuMs();
        for (let look = 0; look < 20; look++) await watch.check();
        const lookCpuMs = cpu === undefined ? undefined : (cpuMs()! - cpu) / 20;
        return { startMs, lookMs, lookAfterRepositoryMs, lookCpuMs };
      });
      rows.push({
        files,
        folders,
        startMs: ms(median(times.map((time) => time.startMs))),
        lookMs: ms(median(times.map((time) => time.lookMs))),
        lookAfterRepositoryMs: ms(median(times.map((time) => time.lookAfterRepositoryMs))),
        ...times[0]!.lookCpuMs === undefined
          ? {}
          : { lookCpuMs: ms(median(times.map((time) => time.lookCpuMs!))) },
      });
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }
  return rows;
}

/** The report's section. */
export function formatGitWatch(rows: readonly GitWatchRow[]): string[] {
  return [
    "## Looking for planted git repositories",
    "The tree is read once when hel starts (in the background); after each sandboxed program " +
    "only folders whose ctime is new are read again. Times in ms (medians); CPU is the " +
    "process's user and system time, which a busy machine hardly moves.",
    table(
      [
        "files",
        "folders",
        "start (read the tree)",
        "look, nothing changed",
        "look, a repository created",
        "CPU of a look, nothing changed",
      ],
      rows.map((row) => [
        int(row.files),
        int(row.folders),
        row.startMs.toFixed(1),
        row.lookMs.toFixed(1),
        row.lookAfterRepositoryMs.toFixed(1),
        row.lookCpuMs?.toFixed(1) ?? "n/a",
      ]),
    ),
  ];
}

if (import.meta.main) {
  console.log(formatGitWatch(await gitWatchCost(Number(Deno.args[0] ?? 5))).join("\n\n"));
}
