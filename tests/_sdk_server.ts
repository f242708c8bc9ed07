/**
 * Test servers written with the MCP SDK (fixtures/mcp/*.ts), started by the real `deno` inside
 * hel's sandbox as a configured server would be: the repository's deno.json for the SDK import,
 * Deno's own module cache (read-only there, and `--cached-only`: nothing is fetched), and a log
 * file in the project, the one place a sandboxed server may write.
 *
 * @module
 */
import { REPO_ROOT } from "./_helpers.ts";
import { logFolder, type ServerEntry } from "./_mcp.ts";

let denoDir: string | undefined;

/** Deno's module cache, as `deno info` names it (once per test file). */
export function moduleCache(): string {
  if (denoDir === undefined) {
    const output = new Deno.Command(Deno.execPath(), {
      args: ["info", "--json"],
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    denoDir = JSON.parse(new TextDecoder().decode(output.stdout)).denoDir as string;
  }
  return denoDir;
}

/**
 * The entry of SDK fixture `script` (a file name in fixtures/mcp/) logging to
 * `<project>/mcp-logs/<name>.jsonl`; `flags` follow the log path.
 */
export function sdkFixtureServer(
  root: string,
  script: string,
  name: string,
  ...flags: string[]
): ServerEntry {
  return {
    command: Deno.execPath(),
    args: [
      "run",
      "-A",
      "--cached-only",
      "--config",
      `${REPO_ROOT}/deno.json`,
      `${REPO_ROOT}/fixtures/mcp/${script}`,
      "--log",
      `${logFolder(root)}/${name}.jsonl`,
      ...flags,
    ],
    // The sandbox gives launchers a private XDG_CACHE_HOME, where Deno would look otherwise.
    env: { DENO_DIR: moduleCache() },
  };
}
