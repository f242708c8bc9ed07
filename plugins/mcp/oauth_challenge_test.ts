import assert from "node:assert/strict";
import { joinScopes, probeChallenge, readChallenge } from "./oauth_challenge.ts";

const refusal = (status: number, header?: string) =>
  new Response("{}", { status, headers: header ? { "www-authenticate": header } : {} });

Deno.test("a Bearer challenge gives its resource metadata address, scope and error", () => {
  const challenge = readChallenge(refusal(
    403,
    'Bearer error="insufficient_scope", scope="mcp:read mcp:write", ' +
      'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
  ));
  assert.deepEqual(challenge, {
    resourceMetadataUrl: new URL(
      "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
    ),
    scope: "mcp:read mcp:write",
    error: "insufficient_scope",
  });
  // Unquoted values, as some servers write them.
  assert.deepEqual(readChallenge(refusal(401, "Bearer error=invalid_token, scope=files")), {
    scope: "files",
    error: "invalid_token",
  });
});

Deno.test("no challenge, another scheme or a bad address give nothing of it", () => {
  assert.deepEqual(readChallenge(refusal(401)), {});
  assert.deepEqual(readChallenge(refusal(401, 'Basic realm="x"')), {});
  assert.deepEqual(readChallenge(refusal(401, 'Bearer resource_metadata="not a url"')), {});
});

Deno.test("what the server wrote is cut to printable scope characters, and bounded", () => {
  const challenge = readChallenge(
    refusal(403, `Bearer error=insufficient_scope\x1b[31m, scope="${"a".repeat(5000)}"`),
  );
  assert.equal(challenge.error, "insufficient_scope[31m");
  assert.equal(challenge.scope?.length, 1000);
});

Deno.test("joinScopes keeps each scope once, in order, and nothing for nothing", () => {
  assert.equal(joinScopes("mcp:basic", "mcp:basic  mcp:write", undefined), "mcp:basic mcp:write");
  assert.equal(joinScopes(undefined, ""), undefined);
});

Deno.test("the probe asks without credentials and reads a 401's challenge, not a 200", async () => {
  const sent: RequestInit[] = [];
  const answer = (response: Response) => (_url: string | URL, init?: RequestInit) => {
    sent.push(init ?? {});
    return Promise.resolve(response);
  };
  const url = "https://mcp.example.com/mcp";
  assert.deepEqual(
    await probeChallenge(url, answer(refusal(401, 'Bearer scope="mcp:basic"'))),
    { scope: "mcp:basic" },
  );
  const headers = new Headers(sent[0]!.headers);
  assert.equal(headers.get("authorization"), null);
  assert.equal(JSON.parse(String(sent[0]!.body)).method, "initialize");
  assert.deepEqual(await probeChallenge(url, answer(new Response("{}"))), {});
  const unreachable = () => Promise.reject(new TypeError("fetch failed"));
  assert.deepEqual(await probeChallenge(url, unreachable), {});
});
