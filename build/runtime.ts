/**
 * Where the Deno runtime (`denort`) that `deno compile` wraps around hel comes from.
 * `deno compile` reads `DENORT_BIN` first, then `$DENO_DIR/dl/release/v<version>/`
 * `denort-<triple>.zip`, and otherwise downloads that archive. Machines without internet
 * need one of the first two, so the build names them when neither is there.
 *
 * @module
 */
import type { BuildTarget } from "./targets.ts";

/** How the runtime for one target will be provided. */
export type RuntimeSource =
  /** The file `DENORT_BIN` names (host target only: it is one binary for one platform). */
  | { kind: "env"; path: string }
  /** The archive `deno compile` cached before (or someone placed there by hand). */
  | { kind: "cache"; path: string }
  /** Neither: `deno compile` will try to download the archive into `cachePath`. */
  | { kind: "download"; cachePath: string };

/** The Deno cache folder (`DENO_DIR`), as `deno info` reports it. */
export async function denoDir(): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as { denoDir?: string };
  if (!output.success || typeof info.denoDir !== "string") {
    throw new Error("cannot find the Deno cache folder: `deno info --json` did not report it");
  }
  return info.denoDir;
}

/** Where `deno compile` keeps the runtime archive of this Deno version for a target. */
export function cachedRuntimePath(dir: string, target: BuildTarget, version = Deno.version.deno) {
  return `${dir}/dl/release/v${version}/denort-${target.triple}.zip`;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * Picks the runtime source for `target`. `denortBin` (the `DENORT_BIN` value) counts only for
 * the host platform; a `DENORT_BIN` naming no file is an error rather than a silent fallback.
 */
export async function findRuntime(
  target: BuildTarget,
  host: BuildTarget | undefined,
  denortBin: string | undefined,
  dir: string,
): Promise<RuntimeSource> {
  if (denortBin && target === host) {
    if (!(await isFile(denortBin))) {
      throw new Error(
        `DENORT_BIN=${denortBin} is not a file: point it at the denort binary of Deno ` +
          `${Deno.version.deno} for ${target.name}, or unset it to use the Deno cache`,
      );
    }
    return { kind: "env", path: denortBin };
  }
  const cachePath = cachedRuntimePath(dir, target);
  return (await isFile(cachePath)) ? { kind: "cache", path: cachePath } : {
    kind: "download",
    cachePath,
  };
}

/** One line saying where the runtime comes from, for the build log. */
export function describeRuntime(source: RuntimeSource): string {
  if (source.kind === "env") return `runtime: DENORT_BIN=${source.path}`;
  if (source.kind === "cache") return `runtime: cached ${source.path}`;
  return `runtime: not provided; deno compile will try to download it into ${source.cachePath}`;
}

/** What to tell the user when no runtime could be had for `target`. */
export function missingRuntimeMessage(
  target: BuildTarget,
  host: BuildTarget | undefined,
  cachePath: string,
): string {
  const archive = `denort-${target.triple}.zip`;
  const version = Deno.version.deno;
  const lines = [
    `no Deno runtime for ${target.name}: deno compile needs ${archive} (Deno ${version}), ` +
    `it is not in the Deno cache and could not be downloaded (no internet?).`,
    "Provide it in one of these ways, then run the build again:",
  ];
  if (target === host) {
    lines.push(
      `  - DENORT_BIN=/path/to/denort deno task build   (the denort binary of Deno ${version} ` +
        "for this machine, from the release archive above; the full `deno` CLI does not work)",
    );
  }
  lines.push(
    `  - put ${archive} from the Deno ${version} release at ${cachePath}` +
      " (deno compile fills this cache itself on a machine that can reach the Deno release server)",
  );
  return lines.join("\n");
}
