/**
 * Which hel the runs measured: the version from deno.json and the last commit that touched
 * the harness code, marked `-dirty` when that code has uncommitted changes.
 *
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };

const HARNESS_PATHS = ["core", "plugins", "main.ts", "deno.json"];

async function git(repoRoot: string, args: string[]): Promise<string | undefined> {
  try {
    const output = await new Deno.Command("git", {
      args,
      cwd: repoRoot,
      stdout: "piped",
      stderr: "null",
    })
      .output();
    return output.success ? new TextDecoder().decode(output.stdout).trim() : undefined;
  } catch {
    return undefined; // no git: the version alone must do
  }
}

/** E.g. `0.1.0+4c4bc42` or `0.1.0+4c4bc42-dirty`; just the version outside a git checkout. */
export async function harnessBuild(repoRoot: string): Promise<string> {
  const commit = await git(repoRoot, ["log", "-1", "--format=%h", "--", ...HARNESS_PATHS]);
  if (!commit) return denoJson.version;
  const status = await git(repoRoot, ["status", "--porcelain", "--", ...HARNESS_PATHS]);
  return `${denoJson.version}+${commit}${status ? "-dirty" : ""}`;
}
