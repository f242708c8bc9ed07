import assert from "node:assert/strict";
import { parseMcpConfig } from "./config.ts";

const parse = (entry: unknown) =>
  parseMcpConfig(
    new TextEncoder().encode(JSON.stringify({ servers: { t: entry } })),
    ".hel/mcp.json",
  );
const URL = "https://mcp.example.com/mcp";

Deno.test('"oauth" with a pre-registered client, its secret by variable, scopes, a port', () => {
  const result = parse({
    url: URL,
    oauth: {
      clientId: "hel-cli",
      clientSecretEnv: "SECRET",
      scopes: ["mcp:tools", "read"],
      callbackPort: 33418,
    },
  });
  assert.ok(result.ok);
  assert.deepEqual(result.servers[0]!.remote!.oauth, {
    clientId: "hel-cli",
    clientSecretEnv: "SECRET",
    scopes: ["mcp:tools", "read"],
    callbackPort: 33418,
  });
});

Deno.test('mistakes in "oauth" name the field and the fix', () => {
  const problems = (entry: unknown) => {
    const result = parse(entry);
    assert.ok(!result.ok);
    return result.problems.join("\n");
  };
  assert.match(problems({ url: URL, oauth: {} }), /servers\."t"\.oauth is empty/);
  assert.match(
    problems({ url: URL, oauth: { clientId: "a b" } }),
    /oauth\.clientId must be the client ID/,
  );
  assert.match(
    problems({ url: URL, oauth: { clientId: "a", clientSecretEnv: "${S}" } }),
    /oauth\.clientSecretEnv must be the name of a variable/,
  );
  assert.match(
    problems({ url: URL, oauth: { clientSecretEnv: "S" } }),
    /clientSecretEnv needs servers\."t"\.oauth\.clientId/,
  );
  assert.match(
    problems({ url: URL, oauth: { scopes: ["a b"] } }),
    /oauth\.scopes must be a non-empty list/,
  );
  assert.match(problems({ url: URL, oauth: { callbackPort: 80 } }), /from 1024 to 65535/);
  assert.match(
    problems({ url: URL, oauth: { clientSecret: "x" } }),
    /unknown field .*clientSecret;/,
  );
  assert.match(
    problems({ url: URL, bearerTokenEnv: "T", oauth: { scopes: ["a"] } }),
    /has "oauth" and an Authorization header/,
  );
  assert.match(
    problems({ url: URL, headers: { AUTHORIZATION: { env: "U" } }, oauth: { scopes: ["a"] } }),
    /has "oauth" and an Authorization header/,
  );
  assert.match(
    problems({ command: "x", oauth: { scopes: ["a"] } }),
    /oauth is only for a server with a "url"/,
  );
});

Deno.test('"oauth" for the grants without a browser, and a client ID metadata document', () => {
  const settings = (oauth: unknown) => {
    const result = parse({ url: URL, oauth });
    assert.ok(result.ok, result.ok ? "" : result.problems.join("\n"));
    return result.servers[0]!.remote!.oauth;
  };
  const cimd = { clientMetadataUrl: "https://example.com/hel-client.json" };
  assert.deepEqual(settings(cimd), cimd);
  const basic = {
    grant: "client_credentials",
    clientId: "job",
    clientSecretEnv: "JOB_SECRET",
    issuer: "https://auth.example.com",
  };
  assert.deepEqual(settings(basic), basic);
  const jwt = {
    grant: "client_credentials",
    clientId: "job",
    privateKeyFile: "~/.config/hel/job.pem",
    signingAlgorithm: "ES256",
    scopes: ["mcp:tools"],
  };
  assert.deepEqual(settings(jwt), jwt);
  const xaa = {
    grant: "cross_app_access",
    clientId: "hel",
    clientSecretEnv: "HEL_SECRET",
    idTokenEnv: "IDP_ID_TOKEN",
    idpTokenEndpoint: "https://idp.example.com/oauth2/token",
    idpClientId: "hel-at-idp",
    idpClientSecretEnv: "IDP_SECRET",
  };
  assert.deepEqual(settings(xaa), xaa);
});

Deno.test('mistakes in the grants of "oauth" name the field and the fix', () => {
  const problems = (oauth: unknown) => {
    const result = parse({ url: URL, oauth });
    assert.ok(!result.ok);
    return result.problems.join("\n");
  };
  const cc = { grant: "client_credentials", clientId: "job" };
  assert.match(problems({ grant: "password" }), /oauth\.grant must be one of "authorization_code"/);
  assert.match(
    problems({ clientMetadataUrl: "http://example.com/c.json" }),
    /clientMetadataUrl must be the https address of hel's client metadata document/,
  );
  assert.match(
    problems({ clientMetadataUrl: "https://example.com/" }),
    /clientMetadataUrl must be .*not the site's root/,
  );
  assert.match(
    problems({ clientId: "a", clientMetadataUrl: "https://example.com/c.json" }),
    /has both "clientId" and "clientMetadataUrl"/,
  );
  assert.match(problems({ grant: "client_credentials" }), /needs "clientId"/);
  assert.match(problems({ issuer: "https://a.example.com" }), /oauth\.issuer needs .*clientId/);
  assert.match(problems({ clientId: "a", issuer: "ftp://a" }), /oauth\.issuer must be the issuer/);
  assert.match(problems(cc), /needs one way for the client to prove itself/);
  assert.match(
    problems({ ...cc, clientSecretEnv: "S", privateKeyEnv: "K" }),
    /prove itself: .*, not 2/,
  );
  assert.match(
    problems({ ...cc, privateKeyFile: "keys/job.pem" }),
    /privateKeyFile must be the absolute path/,
  );
  assert.match(
    problems({ ...cc, privateKeyEnv: "K", signingAlgorithm: "none" }),
    /signingAlgorithm must be one of RS256/,
  );
  assert.match(
    problems({ ...cc, clientSecretEnv: "S", callbackPort: 3000 }),
    /"callbackPort" does not go with "grant": "client_credentials" \(it is for "grant": "authorization_code"\)/,
  );
  assert.match(
    problems({ clientId: "a", idTokenEnv: "T" }),
    /"idTokenEnv" does not go with a browser login .*"cross_app_access"/,
  );
  assert.match(
    problems({ grant: "cross_app_access", clientId: "a", clientSecretEnv: "S" }),
    /needs "idTokenEnv", "idpTokenEndpoint", "idpClientId"/,
  );
  assert.match(
    problems({
      grant: "cross_app_access",
      clientId: "a",
      clientSecretEnv: "S",
      idTokenEnv: "T",
      idpClientId: "i",
      idpTokenEndpoint: "http://idp.example.com/token",
    }),
    /idpTokenEndpoint must be the identity provider's token endpoint, https \(or http to this/,
  );
});
