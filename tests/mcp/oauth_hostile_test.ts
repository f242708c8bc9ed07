/**
 * Hostile authorization servers and identity providers against the real command line: what they
 * write in their refusals reaches the terminal escaped, and the authorization address they name
 * is opened in the browser only when it is a web address.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type TempProject, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { FAST } from "../_mcp.ts";

const ESC = "\x1b]0;pwned\x07\x1b[2J";
/** The escape character, raw in the output. */
const ESCAPE = new RegExp(String.fromCharCode(27));

/** A server behind OAuth whose authorization server is `as`; `idp` is the IdP's answer. */
function hostile(
  as: Record<string, unknown>,
  token: () => Response,
  register: () => Response = () =>
    Response.json({ client_id: "c", redirect_uris: ["http://127.0.0.1/callback"] }, {
      status: 201,
    }),
) {
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen() {},
  }, (request): Response => {
    const { pathname } = new URL(request.url);
    const base: string = `http://127.0.0.1:${server.addr.port}`;
    if (pathname === "/mcp") {
      return new Response("", {
        status: 401,
        headers: {
          "www-authenticate":
            `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
        },
      });
    }
    if (pathname.startsWith("/.well-known/oauth-protected-resource")) {
      return Response.json({ resource: `${base}/mcp`, authorization_servers: [base] });
    }
    if (pathname.startsWith("/.well-known/oauth-authorization-server")) {
      return Response.json({
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        ...as,
      });
    }
    if (pathname === "/register") return register();
    if (pathname === "/token" || pathname === "/idp") return token();
    return new Response("no", { status: 404 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    idp: `http://127.0.0.1:${server.addr.port}/idp`,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

async function hel(project: TempProject, env: Record<string, string>, ...args: string[]) {
  return await runHelInProcess([...FAST, "mcp", ...args], {
    cwd: project.project,
    env: { HEL_HOME: `${project.root}/hel-home`, ...env },
  });
}

const refusal = () =>
  Response.json({ error: `invalid_client${ESC}`, error_description: `bad ${ESC} client` }, {
    status: 400,
  });

Deno.test("a token endpoint's refusal with escape sequences reaches the terminal escaped", async () => {
  await using project = await tempProject();
  await using server = hostile({}, refusal);
  const flags = ["--grant", "client_credentials", "--client-id", "job", "--client-secret-env", "S"];
  const listed = await hel(project, { S: "x" }, "list", "--url", server.url, ...flags);
  assert.doesNotMatch(listed.stdout + listed.stderr, ESCAPE, listed.stdout + listed.stderr);
});

Deno.test("an identity provider's refusal with escape sequences reaches the terminal escaped", async () => {
  await using project = await tempProject();
  await using server = hostile({}, refusal);
  const flags = [
    "--grant",
    "cross_app_access",
    "--client-id",
    "job",
    "--client-secret-env",
    "S",
    "--id-token-env",
    "T",
    "--idp-token-endpoint",
    server.idp,
    "--idp-client-id",
    "idp",
  ];
  const listed = await hel(project, { S: "x", T: "y" }, "list", "--url", server.url, ...flags);
  assert.doesNotMatch(listed.stdout + listed.stderr, ESCAPE);
  assert.match(listed.stdout, /refused to exchange your ID token \(HTTP 400 invalid_client\\u001b/);
});

Deno.test("hel mcp login opens no address but a web one: a file: authorization endpoint is refused", async () => {
  await using project = await tempProject();
  await using server = hostile({ authorization_endpoint: "file:///etc/passwd" }, refusal);
  const opened = `${project.root}/opened`;
  const script = `${project.root}/browser.sh`;
  await Deno.writeTextFile(script, `#!/bin/sh\necho "$@" > ${opened}\n`);
  await Deno.chmod(script, 0o755);
  const login = hel(project, { HEL_BROWSER: script }, "login", "--url", server.url);
  const result = await Promise.race([
    login,
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 4000)),
  ]);
  const wasOpened = await Deno.readTextFile(opened).then((text) => text, () => undefined);
  assert.equal(wasOpened, undefined, "the browser command was run with a file: address");
  assert.ok(result, "the login waited for a redirect from a page it never opened");
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /sent hel to file: address, not a web page; .*: file:\/\/\/etc\/passwd\?/,
  );
});

Deno.test("hel mcp login says a huge refusal of the authorization server in a bounded line", async () => {
  await using project = await tempProject();
  const huge = () =>
    Response.json({
      error: "invalid_client_metadata",
      error_description: `${ESC}${"x".repeat(1024 * 1024)}`,
    }, { status: 400 });
  await using server = hostile({}, refusal, huge);
  const result = await hel(project, { HEL_BROWSER: "true" }, "login", "--url", server.url);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /the login failed: .*invalid_client_metadata/);
  assert.doesNotMatch(result.stderr, ESCAPE);
  assert.ok(result.stderr.length < 2000, `${result.stderr.length} characters written`);
});
