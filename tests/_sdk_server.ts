/**
 * Test servers written with the MCP SDK (fixtures/mcp/*.ts), started by the real `deno` inside
 * hel's sandbox as a configured server would be: the repository's deno.json for the SDK import,
 * Deno's own module cache (read-only there, and `--cached-only`: nothing is fetched), and a log
 * file in the project, the one place a sandboxed server may write.
 *
 * @module
 */
import { tailChars } from "../core/text.ts";
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
 * `deno` arguments that run SDK fixture `script` (fixtures/mcp/) from the module cache alone,
 * logging to `log`.
 */
function fixtureArgs(script: string, log: string, ...flags: string[]): string[] {
  return [
    "run",
    "-A",
    "--cached-only",
    "--config",
    `${REPO_ROOT}/deno.json`,
    `${REPO_ROOT}/fixtures/mcp/${script}`,
    "--log",
    log,
    ...flags,
  ];
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
    args: fixtureArgs(script, `${logFolder(root)}/${name}.jsonl`, ...flags),
    // The sandbox gives launchers a private XDG_CACHE_HOME, where Deno would look otherwise.
    env: { DENO_DIR: moduleCache() },
  };
}

/** An SDK fixture serving HTTP on 127.0.0.1, stopped when disposed. */
export interface HttpFixture extends AsyncDisposable {
  /** Its MCP endpoint. */
  url: string;
  /** The file it logs to. */
  log: string;
}

/**
 * Starts HTTP fixture `script` (fixtures/mcp/) outside hel, as a remote server runs, logging to
 * `log`; resolves once it listens. It fails when the fixture exits first or 30 s pass, with the
 * end of the fixture's stderr.
 */
export async function startHttpFixture(
  script: string,
  log: string,
  ...flags: string[]
): Promise<HttpFixture> {
  const portFile = `${log}.port`;
  const child = new Deno.Command(Deno.execPath(), {
    args: fixtureArgs(script, log, "--port-file", portFile, ...flags),
    stdout: "null",
    stderr: "piped",
  }).spawn();
  // Read all along (a full pipe would stop the server); the end says why a start failed.
  let stderr = "";
  const drained = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      stderr = tailChars(stderr + decoder.decode(chunk, { stream: true }), 2000);
    }
  })().catch(() => {});
  let exit: Deno.CommandStatus | undefined;
  child.status.then((status) => exit = status, () => {});
  let port = "";
  for (let i = 0; i < 300 && port === "" && !exit; i++) {
    port = await Deno.readTextFile(portFile).catch(() => "");
    if (port === "") await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // Already gone.
    }
    await child.status;
    await drained;
  };
  if (port === "") {
    await stop();
    const why = exit
      ? `exited with code ${exit.code} before listening`
      : "did not listen within 30 s";
    throw new Error(
      `fixtures/mcp/${script} ${why} (no ${portFile}); its stderr ends:\n${stderr.trim()}`,
    );
  }
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    [Symbol.asyncDispose]: stop,
  };
}
