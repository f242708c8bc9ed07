/**
 * OAuth for remote MCP servers through the real command line, against an SDK fixture server
 * behind the SDK's own authorization server (fixtures/mcp/oauth_server.ts), with a "browser"
 * (HEL_BROWSER) that fetches the authorization address and follows the redirect back to hel's
 * loopback listener, as the conformance suite expects of a client: before a login a server
 * answering 401 is skipped with "needs login" and a run goes on without it; `hel mcp login`
 * registers hel, stores a 0600 token file, and the next list and call send its token; an expired
 * token is refreshed; a forged state is refused; `hel mcp logout` removes the file; a link
 * planted at the token file's path is never followed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel, type TempProject, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { FAST, modelArgs } from "../_mcp.ts";
import { BROWSER, oauthServer } from "../_oauth.ts";
import { loginPath } from "../../plugins/mcp/oauth_store.ts";

async function hel(project: TempProject, env: Record<string, string>, ...args: string[]) {
  const result = await runHelInProcess([...FAST, "mcp", ...args], { cwd: project.project, env });
  const stderr = result.stderr.split("\n").filter((line) => !line.includes("hel runs as root"));
  return { ...result, stderr: stderr.join("\n") };
}

/** A project whose user file ($HEL_HOME/mcp.json) has the server as "secure". */
async function setup(...extra: string[]) {
  const project = await tempProject();
  const server = await oauthServer(project, ...extra);
  const helHome = `${project.root}/hel-home`;
  await Deno.writeTextFile(
    `${helHome}/mcp.json`,
    JSON.stringify({ servers: { secure: { url: server.url } } }),
  );
  return { project, server, helHome, tokenPath: await loginPath(helHome, server.url) };
}

Deno.test("login stores a 0600 token file, list and call send it, logout removes it", async () => {
  const { project, server, tokenPath } = await setup();
  await using _project = project;
  await using _server = server;
  const env = { HEL_BROWSER: BROWSER };

  let result = await hel(project, env, "list");
  assert.equal(result.code, 1);
  assert.match(result.stdout, /^secure: skipped: needs login: run hel mcp login secure \(/m);

  result = await hel(project, env, "login", "secure");
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /Open this address in your browser[^\n]*\n {2}http:\/\/127\.0\.0\.1:\d+\/authorize\?/,
  );
  assert.match(
    result.stdout,
    /^Logged in to secure; its tokens are in .*mcp-auth\/[0-9a-f]{32}\.json \(mode 0600\)/,
  );
  const info = await Deno.lstat(tokenPath);
  assert.ok(info.isFile);
  assert.equal(info.mode! & 0o777, 0o600);
  assert.equal((await Deno.stat(`${project.root}/hel-home/mcp-auth`)).mode! & 0o777, 0o700);
  const stored = JSON.parse(await Deno.readTextFile(tokenPath));
  assert.equal(stored.url, server.url);
  assert.ok(stored.tokens.access_token && stored.tokens.refresh_token);
  const events = await server.log();
  const registered = events.find((e) => e.event === "register");
  assert.ok(registered, "hel registered itself (dynamic client registration)");
  assert.match(
    String((registered.redirects as string[])[0]),
    /^http:\/\/127\.0\.0\.1:\d+\/callback$/,
  );
  assert.ok(events.some((e) => e.event === "token" && e.grant === "authorization_code"));

  result = await hel(project, env, "list");
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /^secure: connected, 1 tool/m);
  result = await hel(project, env, "call", "secure", "whoami");
  assert.deepEqual(
    [result.code, result.stdout],
    [0, `ok: ${registered.clientId}\n`],
    result.stderr,
  );
  // Nothing in the output shows a token.
  assert.ok(!(result.stdout + result.stderr).includes(stored.tokens.access_token));

  result = await hel(project, env, "logout", "secure");
  assert.deepEqual([result.code, result.stdout], [
    0,
    "Logged out of secure: its tokens were removed.\n",
  ]);
  await assert.rejects(Deno.lstat(tokenPath), Deno.errors.NotFound);
  result = await hel(project, env, "list");
  assert.match(result.stdout, /^secure: skipped: needs login: run hel mcp login secure/m);
});

Deno.test("an expired token is refreshed through the SDK and the new one stored", async () => {
  const { project, server, tokenPath } = await setup("--token-seconds", "1");
  await using _project = project;
  await using _server = server;
  const env = { HEL_BROWSER: BROWSER };
  assert.equal((await hel(project, env, "login", "secure")).code, 0);
  const before = JSON.parse(await Deno.readTextFile(tokenPath)).tokens.access_token;
  await new Promise((r) => setTimeout(r, 1500));
  const result = await hel(project, env, "call", "secure", "whoami");
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^ok: /);
  assert.ok((await server.log()).some((e) => e.event === "token" && e.grant === "refresh_token"));
  const after = JSON.parse(await Deno.readTextFile(tokenPath));
  assert.notEqual(after.tokens.access_token, before);
  assert.equal((await Deno.lstat(tokenPath)).mode! & 0o777, 0o600);
});

Deno.test("a run without a login says needs login and goes on without the server", async () => {
  const { project, server } = await setup();
  await using _project = project;
  await using _server = server;
  await using model = scriptedModel([{ text: "done" }]);
  const result = await runHelInProcess([...FAST, ...modelArgs(model), "-i", "hi"], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /MCP server secure skipped: needs login: run hel mcp login secure/);
  assert.equal(model.remaining(), 0);
});

Deno.test("a redirect with a forged state is refused and nothing is stored", async () => {
  const { project, server, tokenPath } = await setup();
  await using _project = project;
  await using _server = server;
  const result = await hel(
    project,
    { HEL_BROWSER: `${BROWSER} --tamper-state` },
    "login",
    "secure",
  );
  assert.equal(result.code, 1);
  assert.match(result.stderr, /hel mcp login: secure: the redirect came back with another state/);
  const stored = await Deno.readTextFile(tokenPath).then(JSON.parse, () => ({}));
  assert.equal(stored.tokens, undefined);
  assert.ok(!(await server.log()).some((e) => e.event === "token"));
});

Deno.test("a link planted at the token file's path is refused, not followed", async () => {
  const { project, server, tokenPath } = await setup();
  await using _project = project;
  await using _server = server;
  const target = `${project.root}/victim.txt`;
  await Deno.writeTextFile(target, "keep me\n");
  await Deno.mkdir(`${project.root}/hel-home/mcp-auth`, { recursive: true });
  await Deno.symlink(target, tokenPath);
  const env = { HEL_BROWSER: BROWSER };
  let result = await hel(project, env, "login", "secure");
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /refused to read .*mcp-auth\/[0-9a-f]{32}\.json: it is not a plain file/,
  );
  result = await hel(project, env, "list");
  assert.match(result.stdout, /^secure: skipped: not connected: refused to read /m);
  assert.equal(await Deno.readTextFile(target), "keep me\n");
  assert.ok((await Deno.lstat(tokenPath)).isSymlink);
});

Deno.test("a login is kept by address, not name: --url finds the one made as secure", async () => {
  const { project, server, helHome } = await setup();
  await using _project = project;
  await using _server = server;
  assert.equal((await hel(project, { HEL_BROWSER: BROWSER }, "login", "secure")).code, 0);
  // Another address (a project's entry of the same name could point anywhere) has its own key.
  const other = server.url.replace(/\/mcp$/, "/other");
  assert.notEqual(await loginPath(helHome, other), await loginPath(helHome, server.url));
  const result = await hel(project, {}, "list", "--url", server.url);
  assert.match(result.stdout, /^url: connected, 1 tool/m, result.stderr);
});
