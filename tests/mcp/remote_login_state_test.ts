/**
 * What a person sees of a remote server's login before anything is reached: `hel mcp get`
 * (offline) and `hel mcp list` say whether a login is stored, when its token runs out and what to
 * run, from the token store; the trust review of a project entry shows its `"oauth"` settings
 * (the secret's variable name, never a value) and that it would get the login you made for that
 * address. Against the SDK OAuth fixture server, logged in with the scripted browser.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel, type TempProject, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { helOnTerminal } from "../_terminal.ts";
import { FAST, modelArgs } from "../_mcp.ts";
import { BROWSER, oauthServer } from "../_oauth.ts";
import { loginPath } from "../../plugins/mcp/oauth_store.ts";

async function mcp(project: TempProject, ...args: string[]) {
  return await runHelInProcess([...FAST, "mcp", ...args], {
    cwd: project.project,
    env: { HEL_BROWSER: BROWSER, BORROW_SECRET: "s3cret-value" },
  });
}

Deno.test("get, list and the trust review show the login state and oauth settings, never a secret", async () => {
  await using project = await tempProject();
  await using server = await oauthServer(project);
  const helHome = `${project.root}/hel-home`;
  await Deno.writeTextFile(
    `${helHome}/mcp.json`,
    JSON.stringify({ servers: { secure: { url: server.url } } }),
  );
  // A repository's entry for the same address, with a client of its own choosing.
  await project.write(
    ".hel/mcp.json",
    JSON.stringify({
      servers: {
        borrowed: {
          url: server.url,
          // A project's entry may name a secret's variable only with the issuer it goes to.
          oauth: {
            clientId: "repo-client",
            issuer: "https://auth.example.com",
            clientSecretEnv: "BORROW_SECRET",
            scopes: ["mcp"],
          },
        },
      },
    }),
  );

  let result = await mcp(project, "get", "secure");
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stdout,
    /^ {2}login: none stored \(if the server asks for one: hel mcp login secure\)$/m,
  );
  result = await mcp(project, "get", "borrowed");
  assert.match(
    result.stdout,
    /^ {2}oauth: OAuth login \(hel mcp login\): client repo-client at https:\/\/auth\.example\.com, secret from BORROW_SECRET; scopes mcp$/m,
  );
  assert.match(result.stdout, /^ {2}login: needs login: run hel mcp login borrowed$/m);

  assert.equal((await mcp(project, "login", "secure")).code, 0);
  result = await mcp(project, "get", "secure");
  assert.match(
    result.stdout,
    /^ {2}login: logged in since \d{4}-\d\d-\d\d \d\d:\d\d UTC, token valid until \d{4}-\d\d-\d\d \d\d:\d\d UTC$/m,
  );
  result = await mcp(project, "list");
  assert.match(result.stdout, /^secure: connected, 1 tool/m, result.stderr);
  assert.match(result.stdout, /^ {2}login: logged in since /m);
  const json = JSON.parse((await mcp(project, "list", "--json")).stdout);
  const secure = json.servers.find((s: { name: string }) => s.name === "secure");
  assert.equal(secure.remote.login.state, "logged-in");

  // The review of the project's file: its oauth settings and that it would get your login.
  await using model = scriptedModel([{ text: "done" }]);
  const run = helOnTerminal(project, [...modelArgs(model), ...FAST, "-i", "hi"]);
  await run.waitFor("Trust this project's MCP configuration? [y/N]");
  await run.type("n\n");
  const { output } = await run.finish();
  // The review wraps a long line onto indented rows, anywhere in it.
  const review = output.replace(/\r/g, "").replace(/\n +/g, "");
  assert.match(review, /server "borrowed" from \.hel\/mcp\.json, remote/);
  assert.match(
    review,
    /OAuth login \(hel mcp login\): client repo-client at https:\/\/auth\.example\.com, secret from BORROW_SECRET; scopes mcp/,
  );
  assert.match(review, /gets your stored login for this address/);
  const token = JSON.parse(await Deno.readTextFile(await loginPath(helHome, server.url)));
  for (
    const text of [output, (await mcp(project, "get", "borrowed")).stdout, JSON.stringify(json)]
  ) {
    assert.ok(!text.includes("s3cret-value") && !text.includes(token.tokens.access_token));
  }

  // The token's time is up: a refresh token renews it at the next connection.
  token.savedAt = new Date(Date.now() - 2 * 3600_000).toISOString();
  await Deno.writeTextFile(await loginPath(helHome, server.url), JSON.stringify(token));
  result = await mcp(project, "get", "secure");
  assert.match(
    result.stdout,
    /^ {2}login: token expired at [\d-]+ [\d:]+ UTC; the next connection renews it with the stored refresh token$/m,
  );
  assert.equal((await mcp(project, "logout", "secure")).code, 0);
  result = await mcp(project, "get", "secure");
  assert.match(result.stdout, /^ {2}login: none stored/m);
});

Deno.test("a grant without a person and no token yet reads 'token fetched at connection', not 'needs login'", async () => {
  await using project = await tempProject();
  const url = "http://127.0.0.1:9/mcp";
  const client = { clientId: "job", clientSecretEnv: "JOB_SECRET" };
  await Deno.writeTextFile(
    `${project.root}/hel-home/mcp.json`,
    JSON.stringify({
      servers: {
        job: { url, oauth: { grant: "client_credentials", ...client } },
        xaa: {
          url,
          oauth: {
            grant: "cross_app_access",
            ...client,
            idTokenEnv: "ID_TOKEN",
            idpTokenEndpoint: "https://idp.example.com/token",
            idpClientId: "hel",
          },
        },
      },
    }),
  );
  const listed = await mcp(project, "list");
  for (const name of ["job", "xaa"]) {
    const got = await mcp(project, "get", name);
    for (const output of [got.stdout, listed.stdout]) {
      const block = output.slice(output.search(new RegExp(`^${name}: `, "m")));
      assert.match(
        block,
        /^ {2}login: no token yet: token fetched at connection \(no login needed\)$/m,
        output,
      );
    }
  }
  assert.doesNotMatch(listed.stdout, /needs login|hel mcp login/);
});
