/**
 * Which hel the runs measured: the version from deno.json and the last commit that touched
 * the harness code, marked `-dirty.<hash>` when that code has uncommitted changes. The hash
 * covers the changes themselves (the diff and any new files), so two different sets of local
 * edits are two builds, and a recorded run is not reused across them.
 *
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };
import { concatBytes, sha256Hex } from "../kit/mod.ts";

/**
 * Everything hel runs from, plus the driver that turns a condition into hel's flags and the
 * code that lays out a run's workspace and trust: a change to any of them can change a run's
 * outcome.
 */
const HARNESS_PATHS = [
  "agent",
  "cli",
  "core",
  "kit",
  "plugins",
  "main.ts",
  "deno.json",
  "deno.lock",
  "evals/hel_driver.ts",
  "evals/overlay.ts",
  "evals/workspace.ts",
];

async function git(repoRoot: string, args: string[]): Promise<Uint8Array | undefined> {
  try {
    const output = await new Deno.Command("git", {
      args,
      cwd: repoRoot,
      stdout: "piped",
      stderr: "null",
    }).output();
    return output.success ? output.stdout : undefined;
  } catch {
    return undefined; // no git: the version alone must do
  }
}

const text = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes).trim();

/** A short hash of the uncommitted changes under the harness paths. */
async function changesHash(repoRoot: string): Promise<string> {
  const parts: Uint8Array[] = [];
  parts.push(
    await git(repoRoot, ["diff", "HEAD", "--binary", "--", ...HARNESS_PATHS]) ?? new Uint8Array(),
  );
  const untracked = text(
    await git(repoRoot, [
      "ls-files",
      "--others",
      "--exclude-standard",
      "-z",
      "--",
      ...HARNESS_PATHS,
    ]),
  );
  for (const path of (untracked ?? "").split("\0").filter(Boolean).sort()) {
    parts.push(new TextEncoder().encode(`\0${path}\0`));
    parts.push(await Deno.readFile(`${repoRoot}/${path}`).catch(() => new Uint8Array()));
  }
  return (await sha256Hex(concatBytes(parts))).slice(0, 8);
}

/** E.g. `0.1.0+4c4bc42` or `0.1.0+4c4bc42-dirty.1a2b3c4d`; the version outside a git checkout. */
export async function harnessBuild(repoRoot: string): Promise<string> {
  const commit = text(await git(repoRoot, ["log", "-1", "--format=%h", "--", ...HARNESS_PATHS]));
  if (!commit) return denoJson.version;
  const status = text(await git(repoRoot, ["status", "--porcelain", "--", ...HARNESS_PATHS]));
  return `${denoJson.version}+${commit}${status ? `-dirty.${await changesHash(repoRoot)}` : ""}`;
}
