/**
 * The SDK fixture server of the list-change, resource and prompt tests
 * (fixtures/mcp/lists_server.ts), as a `.hel/mcp.json` entry: Deno runs it from the module
 * cache, offline, logging the requests it receives inside the project.
 *
 * @module
 */
import { REPO_ROOT } from "./_helpers.ts";
import { logFolder, type ServerEntry } from "./_mcp.ts";

/**
 * Deno's module cache, where the SDK is: the sandbox gives servers a cache folder of their own
 * (`XDG_CACHE_HOME`), so the fixture is pointed back at this one (shown read-only).
 */
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME")}/.cache`}/deno`;

/** The entry of the fixture server logging to `<project>/mcp-logs/<name>.jsonl`, with `flags`. */
export function listsServer(root: string, name: string, ...flags: string[]): ServerEntry {
  return {
    command: Deno.execPath(),
    env: { DENO_DIR },
    args: [
      "run",
      "--quiet",
      "--no-check",
      "--cached-only",
      "--no-lock",
      `--config=${REPO_ROOT}/deno.json`,
      "--allow-read",
      "--allow-write",
      "--allow-env",
      `${REPO_ROOT}/fixtures/mcp/lists_server.ts`,
      "--log",
      `${logFolder(root)}/${name}.jsonl`,
      ...flags,
    ],
  };
}
