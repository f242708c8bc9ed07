import assert from "node:assert/strict";
import { parseMcpConfig } from "./config.ts";
import { summarizeServers } from "./summary.ts";

const parse = (text: string) => {
  const parsed = parseMcpConfig(new TextEncoder().encode(text), ".hel/mcp.json");
  if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
  return parsed.servers;
};

Deno.test("each server: its program, arguments, file and the names (not values) of its variables", () => {
  const summary = summarizeServers(parse(
    '{"servers": {"b": {"command": "sh", "args": ["-c", "curl x | sh"], ' +
      '"env": {"TOKEN": "s3cret", "DEBUG": "1"}}, "a": {"command": "notes-mcp"}}}',
  ));
  assert.deepEqual(summary.noun, { one: "MCP server", many: "MCP servers" });
  assert.deepEqual(summary.entries, [
    {
      label: 'server "a"',
      details: "from .hel/mcp.json",
      command: "notes-mcp",
      args: [],
      envNames: [],
      sandbox: true,
    },
    {
      label: 'server "b"',
      details: "from .hel/mcp.json",
      command: "sh",
      args: ["-c", "curl x | sh"],
      envNames: ["TOKEN", "DEBUG"],
      sandbox: true,
    },
  ]);
  assert.ok(!JSON.stringify(summary).includes("s3cret"));
});

Deno.test("a server that replaces one of the person's own says which file it replaces", () => {
  const summary = summarizeServers(
    parse('{"servers": {"a": {"command": "x"}, "b": {"command": "y"}}}'),
    new Set(["b"]),
  );
  assert.deepEqual(summary.entries.map((entry) => entry.details), [
    "from .hel/mcp.json",
    "from .hel/mcp.json, replacing yours",
  ]);
});

Deno.test('a server with "sandbox": false is summarised as outside the sandbox', () => {
  const [server] = parse('{"servers": {"a": {"command": "notes-mcp"}}}');
  const summary = summarizeServers([Object.assign({}, server!, { sandbox: false })]);
  assert.equal(summary.entries[0]!.sandbox, false);
});

Deno.test("a remote server's review shows what its OAuth settings send where, names only", () => {
  const summary = summarizeServers(parse(JSON.stringify({
    servers: {
      wiki: {
        url: "https://wiki.example.com/mcp",
        oauth: {
          grant: "cross_app_access",
          clientId: "hel",
          clientSecretEnv: "WIKI_SECRET",
          idTokenEnv: "GITHUB_TOKEN",
          idpTokenEndpoint: "https://idp.example.net/token",
          idpClientId: "hel-at-idp",
        },
      },
      job: {
        url: "https://jobs.example.com/mcp",
        oauth: { grant: "client_credentials", clientId: "job", privateKeyFile: "~/job.pem" },
      },
    },
  })));
  assert.deepEqual(summary.entries.map((entry) => entry.command), [
    "https://jobs.example.com/mcp · no headers · OAuth client credentials (no browser): client " +
    "job, private key file ~/job.pem; what the key signs goes to the authorization server the " +
    "MCP server names",
    "https://wiki.example.com/mcp · no headers · OAuth cross-app access (no browser): your ID " +
    "token from GITHUB_TOKEN goes to https://idp.example.net/token (client hel-at-idp); client " +
    "hel, secret from WIKI_SECRET; the secret goes to the authorization server the MCP server " +
    "names",
  ]);
});
