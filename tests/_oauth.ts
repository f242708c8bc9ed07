/**
 * The OAuth fixture server for tests (fixtures/mcp/oauth_server.ts: an SDK MCP server behind
 * the SDK's own authorization server) and the "browser" `hel mcp login` opens (HEL_BROWSER),
 * which fetches the authorization address and follows the redirect back to hel's listener.
 *
 * @module
 */
import { REPO_ROOT, type TempProject } from "./_helpers.ts";
import { readLog } from "./_mcp.ts";

/** A HEL_BROWSER command that follows the authorization redirects as a signed-in browser. */
export const BROWSER = `${Deno.execPath()} run -A ${REPO_ROOT}/fixtures/mcp/oauth_browser.ts`;

/** The fixture server, its URL and log; stopped at the end of the test. */
export async function oauthServer(project: TempProject, ...extra: string[]) {
  const log = `${project.root}/oauth.jsonl`;
  const portFile = `${project.root}/port`;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${REPO_ROOT}/fixtures/mcp/oauth_server.ts`,
      "--log",
      log,
      "--port-file",
      portFile,
      ...extra,
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  for (let i = 0; i < 300; i++) {
    if (await Deno.stat(portFile).then(() => true, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const url = `http://127.0.0.1:${await Deno.readTextFile(portFile)}/mcp`;
  return {
    url,
    log: () => readLog(log),
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}
