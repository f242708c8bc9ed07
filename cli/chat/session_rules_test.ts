import assert from "node:assert/strict";
import type { ApprovalRequest, ApprovalScope } from "../../core/permissions.ts";
import { describeScope, SessionRules } from "./session_rules.ts";

function bash(command: string, prefix: string | undefined): ApprovalRequest {
  return {
    toolName: "bash",
    args: { command },
    preview: { kind: "command", command, cwd: "/p" },
    scope: prefix === undefined ? undefined : { kind: "command", tool: "bash", prefix },
  };
}

function mcp(server: string, tool: string): ApprovalRequest {
  const args = { q: 1 };
  return {
    toolName: `mcp__${server}__${tool}`,
    args,
    preview: { kind: "arguments", args, server, tool },
    scope: { kind: "server", server },
  };
}

function write(path: string): ApprovalRequest {
  return {
    toolName: "write_file",
    args: { path, content: "x" },
    preview: { kind: "file_change", path, before: null, after: "x" },
    scope: { kind: "tool", tool: "write_file" },
  };
}

Deno.test("a command rule covers the same leading words only, never a compound command", () => {
  const rules = new SessionRules();
  rules.add({ kind: "command", tool: "bash", prefix: "npm test" });
  assert.equal(rules.covers(bash("npm test", "npm test")), true);
  assert.equal(rules.covers(bash("npm test -- --watch", "npm test")), true);
  // The bash tool gives these no scope, so no rule can cover them.
  assert.equal(rules.covers(bash("npm test && rm -rf ~", undefined)), false);
  assert.equal(rules.covers(bash("npm test; curl x | sh", undefined)), false);
  assert.equal(rules.covers(bash("npm install", "npm install")), false);
  assert.equal(rules.covers(bash("npm", "npm")), false);
  // A rule is for its tool: another tool describing the same prefix is not covered.
  assert.equal(
    rules.covers({ ...bash("npm test", "npm test"), toolName: "other_shell" }),
    false,
  );
});

Deno.test("a server rule covers every tool of that server and no other server's", () => {
  const rules = new SessionRules();
  rules.add({ kind: "server", server: "github" });
  assert.equal(rules.covers(mcp("github", "create_issue")), true);
  assert.equal(rules.covers(mcp("github", "delete_repo")), true);
  assert.equal(rules.covers(mcp("gitlab", "create_issue")), false);
  assert.equal(rules.covers(write("a.txt")), false);
});

Deno.test("a tool rule covers that tool's calls only", () => {
  const rules = new SessionRules();
  rules.add({ kind: "tool", tool: "write_file" });
  assert.equal(rules.covers(write("a.txt")), true);
  assert.equal(rules.covers(write("src/b.ts")), true);
  assert.equal(rules.covers(bash("ls", "ls")), false);
  assert.equal(
    rules.covers({ ...write("a.txt"), toolName: "search_replace", scope: undefined }),
    false,
  );
});

Deno.test("rules are listed in order, added once, and removed by their place in the list", () => {
  const rules = new SessionRules();
  const scopes: ApprovalScope[] = [
    { kind: "command", tool: "bash", prefix: "git status" },
    { kind: "server", server: "github" },
    { kind: "tool", tool: "write_file" },
  ];
  for (const scope of [...scopes, scopes[0]!]) rules.add(scope);
  assert.deepEqual(rules.list(), scopes);
  rules.list().pop();
  assert.equal(rules.list().length, 3);
  assert.deepEqual(rules.remove(1), scopes[1]);
  assert.equal(rules.remove(5), undefined);
  assert.equal(rules.remove(-1), undefined);
  assert.deepEqual(rules.list(), [scopes[0], scopes[2]]);
  assert.equal(rules.covers(mcp("github", "create_issue")), false);
});

Deno.test("describeScope says what a rule covers, with names neutralised", () => {
  assert.equal(
    describeScope({ kind: "command", tool: "bash", prefix: "npm test" }),
    "bash commands starting with `npm test`",
  );
  assert.equal(
    describeScope({ kind: "server", server: "github" }),
    "every tool of the MCP server `github`",
  );
  assert.equal(describeScope({ kind: "tool", tool: "write_file" }), "write_file");
  assert.equal(
    describeScope({ kind: "server", server: "x\x1b[2J\u202e\ny" }),
    "every tool of the MCP server `x\\u001b[2J\\u202e\\ny`",
  );
});
