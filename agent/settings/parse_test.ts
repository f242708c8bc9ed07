import assert from "node:assert/strict";
import { checkSettings, parseSettings } from "./parse.ts";

const TOOLS = ["bash", "read_file", "grep"];
const parse = (text: string) =>
  parseSettings(new TextEncoder().encode(text), "/p/.hel/settings.jsonc", TOOLS);

Deno.test("a valid file with comments and trailing commas gives its settings", () => {
  const parsed = parse(`{
    // the project's model
    "model": "m",
    "compaction": {"keepRecent": 5000},
    "permissions": {"deny": ["bash(rm:*)"],},
  }`);
  assert.deepEqual(parsed, {
    ok: true,
    settings: {
      model: "m",
      compaction: { keepRecent: 5000 },
      permissions: { deny: ["bash(rm:*)"] },
    },
  });
});

Deno.test("every mistake is reported at once, in file order, at its line and column", () => {
  const parsed = parse(`{
  "maxTurns": 0,
  "sandbox": {"mode": "of", "netwrok": "on"},
  "api_key_env": "K",
  "tools": ["read_file", "bsh"],
  "stream": "yes"
}`);
  assert.equal(parsed.ok, false);
  assert.deepEqual(!parsed.ok && parsed.problems, [
    "/p/.hel/settings.jsonc:2:15: maxTurns must be a positive whole number, e.g. 50",
    '/p/.hel/settings.jsonc:3:23: sandbox.mode must be "on" or "off"',
    '/p/.hel/settings.jsonc:3:29: unknown setting sandbox.netwrok (did you mean "network"?); ' +
    "allowed in sandbox: mode, network, read, env, allowGitWrites, processes",
    '/p/.hel/settings.jsonc:4:3: unknown setting api_key_env (did you mean "apiKeyEnv"?); ' +
    "allowed: model, baseUrl, apiKeyEnv, access, tools, contextFiles, maxTurns, timeout, " +
    "maxOutputTokens, stream, compaction, sandbox, permissions, outputFormat, modelInput, mcp",
    '/p/.hel/settings.jsonc:5:26: tools[1]: unknown tool "bsh" (did you mean "bash"?); ' +
    "known tools: bash, read_file, grep",
    "/p/.hel/settings.jsonc:6:13: stream must be true or false (no quotes)",
  ]);
});

Deno.test("a name written twice is a mistake: a reader could see one rule while the other applies", () => {
  const parsed = parse('{"permissions": {"allow": [], "allow": ["bash"]}}');
  assert.deepEqual(!parsed.ok && parsed.problems, [
    "/p/.hel/settings.jsonc:1:31: permissions.allow is written twice; keep one",
  ]);
});

Deno.test("a malformed permission rule is named at its place, with what to write", () => {
  const parsed = parse('{"permissions": {"deny": ["bash(rm:*)", "bash(rm -rf"], "ask": [""]}}');
  assert.deepEqual(!parsed.ok && parsed.problems, [
    "/p/.hel/settings.jsonc:1:41: permissions.deny[1] must be a well-formed rule: it does not end " +
    'with ")" after what it covers; a rule is a tool\'s name, or a name and what it covers in ' +
    "parentheses, such as read_file, bash(npm test:*), write_file(src/**) or mcp__github__*",
    "/p/.hel/settings.jsonc:1:65: permissions.ask[0] must be a well-formed rule: it is empty; a " +
    "rule is a tool's name, or a name and what it covers in parentheses, such as read_file, " +
    "bash(npm test:*), write_file(src/**) or mcp__github__*",
  ]);
});

Deno.test("syntax errors, an empty file and a top level that is not an object name the fix", () => {
  const syntax = parse('{"model": "m" "access": "auto"}');
  assert.deepEqual(!syntax.ok && syntax.problems, [
    '/p/.hel/settings.jsonc:1:15: a "," is expected',
  ]);
  const empty = parse("  \n");
  assert.match(
    !empty.ok ? empty.problems[0]! : "",
    /: the file is empty; write \{\} or for example/,
  );
  const list = parse("[]");
  assert.match(!list.ok ? list.problems[0]! : "", /:1:1: the top level must be an object/);
});

Deno.test("a base URL must be http(s) and a key variable a variable name", () => {
  const parsed = parse('{"baseUrl": "ftp://x", "apiKeyEnv": "MY KEY"}');
  assert.deepEqual(!parsed.ok && parsed.problems.map((p) => p.replace(/^\S+: /, "")), [
    'baseUrl must be an http:// or https:// URL, e.g. "http://localhost:8080/v1"',
    'apiKeyEnv must be a variable name, e.g. "OPENAI_API_KEY"',
  ]);
});

Deno.test("checkSettings checks a value without a file, as hel config set does", () => {
  assert.deepEqual(checkSettings({ compaction: { keepRecent: 10 } }).ok, true);
  const bad = checkSettings({ access: "yolo" });
  assert.deepEqual(!bad.ok && bad.mistakes.map((m) => m.message), [
    'access must be one of "read-only", "confirm", "auto"',
  ]);
});

Deno.test("a rule naming a tool in another case or by Claude Code's name is a mistake, not a rule that never matches", () => {
  const parsed = parse(
    '{"permissions": {"deny": ["Bash(rm:*)", "Read(./.env)", "bash(git push:*)"], ' +
      '"allow": ["Grep", "mcp__github__*", "load_mcp_tool", "mcp__*"]}}',
  );
  assert.deepEqual(!parsed.ok && parsed.problems, [
    '/p/.hel/settings.jsonc:1:27: permissions.deny[0]: "Bash(rm:*)" names no tool, so it ' +
    'would never match (tool names are as hel offers them: did you mean "bash(rm:*)"?)',
    '/p/.hel/settings.jsonc:1:41: permissions.deny[1]: "Read(./.env)" names no tool, so it ' +
    'would never match (tool names are as hel offers them: did you mean "read_file(./.env)"?)',
    '/p/.hel/settings.jsonc:1:88: permissions.allow[0]: "Grep" names no tool, so it ' +
    'would never match (tool names are as hel offers them: did you mean "grep"?)',
  ]);
});

Deno.test("mcp.browser is a setting of the person's own file; a project's file may not have it", () => {
  const text = '{"mcp": {"browser": "firefox --new-window"}}';
  const bytes = new TextEncoder().encode(text);
  assert.deepEqual(parseSettings(bytes, "/h/settings.jsonc", TOOLS), {
    ok: true,
    settings: { mcp: { browser: "firefox --new-window" } },
  });
  const project = parseSettings(bytes, "/p/.hel/settings.jsonc", TOOLS, "project");
  assert.equal(project.ok, false);
  assert.match(
    !project.ok ? project.problems.join("\n") : "",
    /^\/p\/\.hel\/settings\.jsonc:1:10: mcp\.browser may be set only in your own settings file/,
  );
});
