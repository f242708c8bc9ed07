import assert from "node:assert/strict";
import { parseMcpConfig } from "./config.ts";
import { summarizeServers } from "./summary.ts";

const parse = (text: string) => parseMcpConfig(new TextEncoder().encode(text), ".hel/mcp.json");

Deno.test("a url entry: transport, headers from variables, a bearer token variable", () => {
  const parsed = parse(`{"servers": {"gh": {
    "url": "https://mcp.example.com/mcp", "transport": "sse", "bearerTokenEnv": "GH_TOKEN",
    "headers": {"X-Api-Key": {"env": "API_KEY"}, "X-Tenant": "acme"}, "timeout": 20}}}`);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  assert.deepEqual(parsed.servers[0]!.remote, {
    url: "https://mcp.example.com/mcp",
    transport: "sse",
    bearerTokenEnv: "GH_TOKEN",
    headers: { "X-Api-Key": { env: "API_KEY" }, "X-Tenant": { value: "acme" } },
  });
  assert.equal(parsed.servers[0]!.callTimeoutMs, 20_000);
});

Deno.test("url entry mistakes name the file, line, column, field and fix", () => {
  const problems = (text: string) => {
    const parsed = parse(text);
    assert.ok(!parsed.ok);
    return parsed.problems;
  };
  const [ftp] = problems('{"servers": {"a": {"url": "ftp://x/"}}}');
  assert.match(
    ftp!,
    /^\.hel\/mcp\.json:1:27: servers\."a"\.url must start with http:\/\/ or https:\/\//,
  );
  assert.match(
    problems('{"servers": {"a": {"url": "https://u:p@x/"}}}')[0]!,
    /user name or password/,
  );
  assert.match(
    problems('{"servers": {"a": {"url": "https://x/", "command": "npx"}}}')[0]!,
    /has both "url" and "command": a server with a "url" is reached over HTTP/,
  );
  assert.match(
    problems('{"servers": {"a": {"url": "https://x/", "transport": "ws"}}}')[0]!,
    /transport must be "http" \(Streamable HTTP\) or "sse"/,
  );
  // A credential may not be written in the file; interpolation is refused with the way to write it.
  assert.match(
    problems(
      '{"servers": {"a": {"url": "https://x/", "headers": {"Authorization": "Bearer abc"}}}}',
    )[0]!,
    /servers\."a"\.headers\.Authorization looks like a credential.*write \{"env": "AUTHORIZATION"\}.*bearerTokenEnv/,
  );
  assert.match(
    problems('{"servers": {"a": {"url": "https://x/", "headers": {"X-Org": "${ORG}"}}}}')[0]!,
    /does not expand variables inside values; write \{"env": "X_ORG"\}/,
  );
  assert.match(
    problems('{"servers": {"a": {"url": "https://x/", "headers": {"Mcp-Session-Id": "1"}}}}')[0]!,
    /sets Mcp-Session-Id itself/,
  );
  assert.match(
    problems('{"servers": {"a": {"command": "x", "bearerTokenEnv": "T"}}}')[0]!,
    /bearerTokenEnv is only for a server with a "url"/,
  );
  assert.match(problems('{"servers": {"a": {}}}')[0]!, /needs a "command" .* or a "url"/);
  assert.match(
    problems(
      '{"servers": {"a": {"url": "https://x/", "bearerTokenEnv": "T", "headers": {"authorization": {"env": "U"}}}}}',
    )[0]!,
    /sets Authorization twice/,
  );
});

Deno.test("the trust review shows the URL, header names and variable names, never a value", () => {
  const parsed = parse(`{"servers": {"gh": {"url": "https://mcp.example.com/mcp",
    "bearerTokenEnv": "GH_TOKEN", "headers": {"X-Api-Key": {"env": "API_KEY"}, "X-Tenant": "acme"}}}}`);
  assert.ok(parsed.ok);
  const [entry] = summarizeServers(parsed.servers).entries;
  assert.deepEqual(entry, {
    label: 'server "gh"',
    details: "from .hel/mcp.json, remote (http, else sse)",
    command: "https://mcp.example.com/mcp · sends: Authorization (bearer, from GH_TOKEN), " +
      "X-Api-Key (from API_KEY), X-Tenant (set in the file)",
    envNames: [],
    sandbox: true,
    program: false,
    commandLabel: "connect",
  });
  assert.doesNotMatch(JSON.stringify(entry), /acme/);
});
