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
    problems({ command: "x", oauth: { scopes: ["a"] } }),
    /oauth is only for a server with a "url"/,
  );
});
