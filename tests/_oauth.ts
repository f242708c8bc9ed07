/**
 * The OAuth fixture server for tests (fixtures/mcp/oauth_server.ts: an SDK MCP server behind
 * the SDK's own authorization server) and the "browser" `hel mcp login` opens (HEL_BROWSER),
 * which fetches the authorization address and follows the redirect back to hel's listener.
 *
 * @module
 */
import { REPO_ROOT, type TempProject } from "./_helpers.ts";
import { readLog } from "./_mcp.ts";
import { startHttpFixture } from "./_sdk_server.ts";

/** A HEL_BROWSER command that follows the authorization redirects as a signed-in browser. */
export const BROWSER = `${Deno.execPath()} run -A ${REPO_ROOT}/fixtures/mcp/oauth_browser.ts`;

/** The fixture server, its URL and log; stopped at the end of the test. */
export async function oauthServer(project: TempProject, ...extra: string[]) {
  const log = `${project.root}/oauth.jsonl`;
  const server = await startHttpFixture("oauth_server.ts", log, ...extra);
  return {
    url: server.url,
    log: () => readLog(log),
    [Symbol.asyncDispose]: () => server[Symbol.asyncDispose](),
  };
}
