/**
 * A remote server that lets hel initialize and then refuses it (401, 403 `insufficient_scope`:
 * a server behind OAuth, a call that needs a scope), as the conformance suite's
 * auth/scope-retry-limit server does: hel says "needs login again" with the command, for
 * `hel mcp list --url` (the server is skipped) and `hel mcp call --url` (the call fails),
 * instead of "closed the connection" or the SDK's "Error POSTing to endpoint"; an entry that
 * sends its own Authorization is told to check it instead. The SDK fixture
 * fixtures/mcp/http_server.ts answers `--deny`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type TempProject, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { FAST } from "../_mcp.ts";
import { type HttpFixture, startHttpFixture } from "../_sdk_server.ts";

/** The fixture, refusing the request methods `deny` gives (`tools/list=401`), until disposed. */
function refusingServer(project: TempProject, deny: string): Promise<HttpFixture> {
  return startHttpFixture("http_server.ts", `${project.root}/http.jsonl`, "--deny", deny);
}

Deno.test("a server that answers tools/list with 401 after initialize is skipped: needs login again", async () => {
  await using project = await tempProject();
  await using server = await refusingServer(project, "tools/list=401");
  const result = await runHelInProcess([...FAST, "mcp", "list", "--url", server.url], {
    cwd: project.project,
  });
  assert.equal(result.code, 1, result.stdout);
  assert.ok(
    result.stdout.includes(
      `url: skipped: needs login again: run hel mcp login --url ${server.url} (${server.url} ` +
        "answered 401 unauthorized: it wants an OAuth login, and hel has none for it or the one " +
        "it had expired)",
    ),
    result.stdout,
  );
});

Deno.test("a call answered 403 insufficient_scope fails with needs login again and the scope", async () => {
  await using project = await tempProject();
  await using server = await refusingServer(project, "tools/call=403");
  const result = await runHelInProcess(
    [...FAST, "mcp", "call", "--url", server.url, "whoami", "{}"],
    { cwd: project.project },
  );
  assert.equal(result.code, 1, result.stderr);
  assert.ok(
    result.stderr.includes(
      `error: MCP request to url failed: needs login again: run hel mcp login --url ${server.url}` +
        ` (${server.url} wants the scope "admin", which the login did not grant (403 ` +
        "insufficient_scope); logging in again asks for it)",
    ),
    result.stderr,
  );
  assert.doesNotMatch(result.stderr, /Error POSTing/);
});

Deno.test("a 401 to an entry sending its own bearer token says to check it, not to log in", async () => {
  await using project = await tempProject();
  await using server = await refusingServer(project, "tools/list=401");
  const result = await runHelInProcess(
    [...FAST, "mcp", "list", "--url", server.url, "--bearer-token-env", "MY_TOKEN"],
    { cwd: project.project, env: { MY_TOKEN: "t0ken" } },
  );
  assert.equal(result.code, 1, result.stdout);
  assert.ok(
    result.stdout.includes(
      `url: skipped: ${server.url} answered 401 (unauthorized): it needs credentials hel did ` +
        'not send or the server refused; check "bearerTokenEnv" or "headers" in its entry',
    ),
    result.stdout,
  );
  assert.doesNotMatch(result.stdout, /hel mcp login|needs login/);
});
