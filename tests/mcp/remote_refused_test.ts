/**
 * A remote server that lets hel initialize and then refuses it (401, 403: a server behind
 * OAuth, a call that needs a scope), as the conformance suite's auth/scope-retry-limit server
 * does: hel names the answer and what to check, for `hel mcp list --url` (the server is skipped)
 * and `hel mcp call --url` (the call fails), instead of "closed the connection" or the SDK's
 * "Error POSTing to endpoint". The SDK fixture fixtures/mcp/http_server.ts answers `--deny`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { REPO_ROOT, type TempProject, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { FAST } from "../_mcp.ts";

/** The fixture, refusing the request methods `deny` gives (`tools/list=401`), until disposed. */
async function refusingServer(project: TempProject, deny: string) {
  const portFile = `${project.root}/port`;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${REPO_ROOT}/fixtures/mcp/http_server.ts`,
      "--port-file",
      portFile,
      "--deny",
      deny,
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  let port = "";
  for (let i = 0; i < 300 && port === ""; i++) {
    port = await Deno.readTextFile(portFile).catch(() => "");
    if (port === "") await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async [Symbol.asyncDispose]() {
      child.kill();
      await child.status;
    },
  };
}

const CREDENTIALS = "it needs credentials hel did not send or the server refused; check " +
  '"bearerTokenEnv" or "headers" in its entry, or log in: hel mcp login --url ';

Deno.test("a server that answers tools/list with 401 after initialize is skipped, and the 401 is named", async () => {
  await using project = await tempProject();
  await using server = await refusingServer(project, "tools/list=401");
  const result = await runHelInProcess([...FAST, "mcp", "list", "--url", server.url], {
    cwd: project.project,
  });
  assert.equal(result.code, 1, result.stdout);
  assert.ok(
    result.stdout.includes(
      `url: skipped: ${server.url} answered 401 (unauthorized): ${CREDENTIALS}`,
    ),
    result.stdout,
  );
});

Deno.test("a call the server answers with 403 fails, and the 403 is named", async () => {
  await using project = await tempProject();
  await using server = await refusingServer(project, "tools/call=403");
  const result = await runHelInProcess(
    [...FAST, "mcp", "call", "--url", server.url, "whoami", "{}"],
    { cwd: project.project },
  );
  assert.equal(result.code, 1, result.stderr);
  assert.ok(
    result.stderr.includes(
      `error: MCP request to url failed: ${server.url} answered 403 (forbidden): ${CREDENTIALS}`,
    ),
    result.stderr,
  );
  assert.doesNotMatch(result.stderr, /Error POSTing/);
});
