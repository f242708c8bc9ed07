/**
 * The client-credentials grant through the real command line, against the SDK fixture server
 * behind OAuth (fixtures/mcp/oauth_server.ts with `--client-credentials`): no browser and no
 * `hel mcp login`; the first connection gets a token from the token endpoint, stores it in the
 * login file of the address (0600, without the secret), and the next run reuses it; a variable
 * that is not set, or a secret the server refuses, is said without the secret. (The private-key
 * and cross-app grants and client ID metadata documents run in the conformance suite,
 * tests/mcp/conformance_test.ts.)
 *
 * @module
 */
import assert from "node:assert/strict";
import { type TempProject, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { FAST } from "../_mcp.ts";
import { oauthServer } from "../_oauth.ts";
import { loginPath } from "../../plugins/mcp/oauth_store.ts";

const SECRET = "s3cret-value-never-shown";

async function hel(project: TempProject, env: Record<string, string>, ...args: string[]) {
  return await runHelInProcess([...FAST, "mcp", ...args], {
    cwd: project.project,
    env: { HEL_HOME: `${project.root}/hel-home`, ...env },
  });
}

const grant = ["--grant", "client_credentials", "--client-id", "job"];
const secretFlags = [...grant, "--client-secret-env", "JOB_SECRET"];

Deno.test("client credentials: a token is fetched when connecting, stored 0600, and reused", async () => {
  await using project = await tempProject();
  await using server = await oauthServer(project, "--client-credentials", `job:${SECRET}`);
  const env = { JOB_SECRET: SECRET };
  const listed = await hel(project, env, "list", "--url", server.url, ...secretFlags);
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  assert.match(listed.stdout, /^url: connected, 1 tool/m);
  const called = await hel(project, env, "call", "--url", server.url, ...secretFlags, "whoami");
  assert.equal(called.code, 0, called.stderr);
  assert.equal(called.stdout.trim(), "ok: job");
  const tokens = (await server.log()).filter((entry) => entry.event === "token");
  assert.deepEqual(tokens, [{
    event: "token",
    grant: "client_credentials",
    clientId: "job",
    ok: true,
  }]);
  const file = await loginPath(`${project.root}/hel-home`, server.url);
  assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
  const stored = await Deno.readTextFile(file);
  assert.match(stored, /"access_token"/);
  assert.doesNotMatch(stored, new RegExp(SECRET));
  assert.doesNotMatch(listed.stdout + listed.stderr + called.stderr, new RegExp(SECRET));
});

Deno.test("client credentials: an unset variable and a refused secret are said, the secret never", async () => {
  await using project = await tempProject();
  await using server = await oauthServer(project, "--client-credentials", `job:${SECRET}`);
  const unset = await hel(project, {}, "list", "--url", server.url, ...secretFlags);
  assert.equal(unset.code, 1);
  assert.match(
    unset.stdout,
    /^url: skipped: not connected: --client-secret-env names JOB_SECRET, which is not set in your environment; set it to the client secret$/m,
  );
  const wrong = await hel(
    project,
    { JOB_SECRET: "wrong" },
    "list",
    "--url",
    server.url,
    ...secretFlags,
  );
  assert.equal(wrong.code, 1);
  assert.ok(
    wrong.stdout.includes(
      `url: skipped: could not connect to ${server.url}: the authorization server answered ` +
        "invalid_client; check the client ID and its secret or key\n",
    ),
    wrong.stdout,
  );
  assert.doesNotMatch(wrong.stdout + wrong.stderr, /wrong|s3cret/);
  const tokens = (await server.log()).filter((entry) => entry.event === "token");
  assert.deepEqual(tokens.map((entry) => entry.ok), [false, false]);
});

Deno.test("client credentials: a secret is sent to no authorization server but the entry's issuer", async () => {
  await using project = await tempProject();
  await using server = await oauthServer(project, "--client-credentials", `job:${SECRET}`);
  const env = { JOB_SECRET: SECRET };
  const elsewhere = await hel(
    project,
    env,
    ...["list", "--url", server.url, ...secretFlags, "--issuer", "https://auth.example.com"],
  );
  assert.equal(elsewhere.code, 1);
  const issuer = new URL(server.url).origin;
  assert.ok(
    elsewhere.stdout.includes(
      `url: skipped: could not connect to ${server.url}: the server sends hel to the ` +
        `authorization server ${issuer}/, but the client's credentials belong to ` +
        'https://auth.example.com ("oauth.issuer", or where they were first used), so hel sent ' +
        'them nowhere; if it moved, change "issuer" or forget it with hel mcp logout\n',
    ),
    elsewhere.stdout,
  );
  assert.deepEqual((await server.log()).filter((entry) => entry.event === "token"), []);
  const there = await hel(
    project,
    env,
    "list",
    "--url",
    server.url,
    ...secretFlags,
    "--issuer",
    issuer,
  );
  assert.equal(there.code, 0, there.stdout);
  assert.match(there.stdout, /^url: connected, 1 tool/m);
});
