import assert from "node:assert/strict";
import { DEFAULT_TIMEOUT_SECONDS, type HooksConfig, matches, parseHooksConfig } from "./config.ts";

const PATH = "/p/.hel/hooks.json";

function parse(text: string | Uint8Array): HooksConfig {
  const result = parseHooksConfig(
    typeof text === "string" ? new TextEncoder().encode(text) : text,
    PATH,
  );
  if (!result.ok) assert.fail(result.problems.join("\n"));
  return result.config;
}

/** Every mistake reported for `text`. */
function problems(text: string | Uint8Array): string[] {
  const result = parseHooksConfig(
    typeof text === "string" ? new TextEncoder().encode(text) : text,
    PATH,
  );
  assert.equal(result.ok, false, `expected ${JSON.stringify(text)} to be rejected`);
  return (result as { problems: string[] }).problems;
}

/** The one mistake reported for `text`. */
function problem(text: string | Uint8Array): string {
  const found = problems(text);
  assert.equal(found.length, 1, found.join("\n"));
  return found[0]!;
}

Deno.test("JSONC with comments and trailing commas parses; handlers keep file order", () => {
  const config = parse(`// project hooks
{
  "description": "guards",
  "hooks": {
    "PreToolUse": [
      { "matcher": "^bash$", "hooks": [
        { "type": "command", "command": "first", "timeout": 5 },
        { "type": "command", "command": "second", "on_error": "block" }, /* trailing */
      ] },
      { "hooks": [{ "type": "command", "command": "third" }] },
    ],
    "PostToolUse": [{ "matcher": "*", "hooks": [{ "type": "command", "command": "after" }] }],
  },
}`);
  assert.deepEqual(
    config.PreToolUse.map((h) => [h.index, h.command, h.timeoutSeconds, h.onError, h.matcher]),
    [
      [0, "first", 5, "continue", "^bash$"],
      [1, "second", DEFAULT_TIMEOUT_SECONDS, "block", "^bash$"],
      [2, "third", DEFAULT_TIMEOUT_SECONDS, "continue", undefined],
    ],
  );
  assert.deepEqual(config.PostToolUse.map((h) => [h.index, h.command]), [[0, "after"]]);
});

Deno.test("matchers: omitted, empty and * match all; others are unanchored regexes", () => {
  const config = parse(JSON.stringify({
    hooks: {
      PreToolUse: [
        { hooks: [{ type: "command", command: "a" }] },
        { matcher: "", hooks: [{ type: "command", command: "b" }] },
        { matcher: "*", hooks: [{ type: "command", command: "c" }] },
        { matcher: "^search_replace$", hooks: [{ type: "command", command: "d" }] },
        { matcher: "write|replace", hooks: [{ type: "command", command: "e" }] },
        { matcher: "^mcp__", hooks: [{ type: "command", command: "f" }] },
      ],
    },
  }));
  const run = (tool: string) =>
    config.PreToolUse.filter((h) => matches(h, tool)).map((h) => h.command).join("");
  assert.equal(run("search_replace"), "abcde");
  assert.equal(run("write_file"), "abce");
  assert.equal(run("read_file"), "abc");
  assert.equal(run("mcp__db__query"), "abcf");
  assert.equal(run("my_search_replace"), "abce", "anchors are the author's choice");
});

Deno.test("an empty hooks object is a valid config with no handlers", () => {
  const config = parse('{"hooks": {}}');
  assert.deepEqual(config, { PreToolUse: [], PostToolUse: [] });
});

Deno.test("a BOM is accepted", () => {
  const config = parse("\ufeff" + '{"hooks": {"PreToolUse": []}}');
  assert.deepEqual(config.PreToolUse, []);
});

Deno.test("syntax errors name the file, line and column", () => {
  assert.match(
    problems('{\n  "hooks": {\n    "PreToolUse": [\n  }\n}')[0]!,
    /^\/p\/\.hel\/hooks\.json:4:3: .*expected.*; fix the JSON/,
  );
  assert.match(problem('{"hooks": {"PreToolUse": "unterminated'), /:1:26: unterminated string/);
  assert.match(problem("{} {}"), /:1:4: unexpected text after the end/);
  assert.match(problem(""), /hooks\.json: the file is empty/);
  assert.match(problem("  \n"), /the file is empty/);
  assert.match(problem(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])), /not valid UTF-8/);
});

Deno.test("deep nesting is refused, not a crash", () => {
  const deep = '{"hooks": ' + "[".repeat(100_000) + "]".repeat(100_000) + "}";
  assert.match(problem(deep), /hooks\.json/);
});

Deno.test("unknown fields anywhere are errors that name the field and the fix", () => {
  assert.match(
    problem('{"hooks": {}, "hoks": 1}'),
    /:1:15: unknown field "hoks" in the top level \(did you mean "hooks"\?\); allowed fields: description, hooks/,
  );
  assert.match(
    problem('{"hooks": {"PreToolUse": [{"matcher": "x", "hooks": [], "extra": true}]}}'),
    /unknown field "extra" in hooks\.PreToolUse\[0\]; allowed fields: matcher, hooks/,
  );
  assert.match(
    problems(
      '{"hooks": {"PreToolUse": [{"hooks": [\n{"type": "command", "comand": "x"}]}]}}',
    )[0]!,
    /:2:21: unknown field "comand" in hooks\.PreToolUse\[0\]\.hooks\[0\] \(did you mean "command"\?\)/,
  );
  assert.match(
    problem('{"hooks": {"SessionStart": []}}'),
    /unsupported hook event "SessionStart" in hooks; use PreToolUse or PostToolUse/,
  );
  assert.match(
    problem('{"hooks": {"PreToolUse": [], "PreToolUse": []}}'),
    /field "PreToolUse" appears twice in hooks; keep one/,
  );
});

Deno.test("wrong types and values name the field and the fix", () => {
  const cases: [unknown, RegExp][] = [
    [[], /the top level must be an object/],
    [{}, /missing field "hooks"/],
    [{ hooks: [] }, /hooks must be an object/],
    [{ hooks: { PreToolUse: {} } }, /hooks\.PreToolUse must be a list/],
    [{ hooks: { PreToolUse: [{}] } }, /missing field "hooks" in hooks\.PreToolUse\[0\]/],
    [{ hooks: { PreToolUse: [{ matcher: 3, hooks: [] }] } }, /matcher must be a string/],
    [
      { hooks: { PreToolUse: [{ matcher: "(", hooks: [] }] } },
      /hooks\.PreToolUse\[0\]\.matcher is not a valid regular expression/,
    ],
    [
      { hooks: { PostToolUse: [{ hooks: [{ type: "shell", command: "x" }] }] } },
      /hooks\.PostToolUse\[0\]\.hooks\[0\]\.type must be "command"/,
    ],
    [{ hooks: { PostToolUse: [{ hooks: [{ command: "x" }] }] } }, /type must be "command"/],
    [
      { hooks: { PostToolUse: [{ hooks: [{ type: "command", command: "  " }] }] } },
      /command must be a non-blank string/,
    ],
    [
      { hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "x", timeout: 0 }] }] } },
      /timeout must be a positive whole number of seconds/,
    ],
    [
      { hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "x", timeout: 1.5 }] }] } },
      /timeout must be a positive whole number/,
    ],
    [
      { hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "x", timeout: "10s" }] }] } },
      /timeout must be a positive whole number/,
    ],
    [
      // Past what a timer holds, the hook would be stopped as soon as it started.
      { hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "x", timeout: 2147484 }] }] } },
      /timeout must be a positive whole number of seconds, at most 2147483 \(about 24 days\)/,
    ],
    [
      {
        hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "x", on_error: "fail" }] }] },
      },
      /on_error must be "continue" .* or "block"/,
    ],
  ];
  for (const [value, expected] of cases) {
    assert.match(problem(JSON.stringify(value)), expected, JSON.stringify(value));
  }
});

Deno.test("at most 128 handlers", () => {
  const handlers = (count: number) =>
    JSON.stringify({
      hooks: {
        PreToolUse: [{
          hooks: Array.from({ length: count }, () => ({ type: "command", command: "x" })),
        }],
      },
    });
  assert.equal(parse(handlers(128)).PreToolUse.length, 128);
  assert.match(problem(handlers(129)), /more than 128 hook handlers/);
});

Deno.test('handlers run sandboxed unless they say "sandbox": false; a non-boolean is refused', () => {
  const config = parse(JSON.stringify({
    hooks: {
      PreToolUse: [{
        hooks: [
          { type: "command", command: "a" },
          { type: "command", command: "b", sandbox: false },
          { type: "command", command: "c", sandbox: true },
        ],
      }],
    },
  }));
  assert.deepEqual(config.PreToolUse.map((h) => h.sandbox), [true, false, true]);
  assert.equal(
    problem(
      '{"hooks": {"PreToolUse": [{"hooks": [\n{"type": "command", "command": "a", "sandbox": "false"}]}]}}',
    ),
    "/p/.hel/hooks.json:2:48: hooks.PreToolUse[0].hooks[0].sandbox must be true (the default: " +
      "the command runs in the sandbox, like bash) or false (it runs outside, with your " +
      'rights); write "sandbox": false without quotes',
  );
});

Deno.test("every mistake of a file is reported at once, each with its place and fix", () => {
  const text = `{
  "hooks": {
    "PreToolUse": [
      { "matcher": "(", "hooks": [{ "type": "command", "comand": "x" }] },
      { "hooks": [{ "type": "shell", "command": "y", "timeout": 0 }] }
    ],
    "PostToolUse": [{ "hooks": [{ "type": "command", "command": "z", "sandbox": "no" }] }],
    "Stop": []
  }
}`;
  assert.deepEqual(problems(text), [
    `${PATH}:8:5: unsupported hook event "Stop" in hooks; use PreToolUse or PostToolUse`,
    `${PATH}:4:20: hooks.PreToolUse[0].matcher is not a valid regular expression (Invalid ` +
    'regular expression: /(/u: Unterminated group); write one such as "^search_replace$", ' +
    "or leave it out to match every tool",
    `${PATH}:4:56: unknown field "comand" in hooks.PreToolUse[0].hooks[0] (did you mean ` +
    '"command"?); allowed fields: type, command, timeout, on_error, sandbox',
    `${PATH}:4:35: hooks.PreToolUse[0].hooks[0].command must be a non-blank string (run by ` +
    '/bin/sh -c in the project, inside the sandbox unless the handler says "sandbox": false), ' +
    'e.g. "command": "./scripts/check.sh"',
    `${PATH}:5:29: hooks.PreToolUse[1].hooks[0].type must be "command"; write "type": "command"`,
    `${PATH}:5:65: hooks.PreToolUse[1].hooks[0].timeout must be a positive whole number of ` +
    'seconds, at most 2147483 (about 24 days), e.g. "timeout": 30 (default 600)',
    `${PATH}:7:81: hooks.PostToolUse[0].hooks[0].sandbox must be true (the default: the ` +
    "command runs in the sandbox, like bash) or false (it runs outside, with your rights); " +
    'write "sandbox": false without quotes',
  ]);
});

Deno.test("a file with very many mistakes lists the first 20 and counts the rest", () => {
  const handlers = Array.from({ length: 25 }, () => ({ type: "command", command: "" }));
  const found = problems(JSON.stringify({ hooks: { PreToolUse: [{ hooks: handlers }] } }));
  assert.equal(found.length, 21);
  assert.equal(found[20], `... and 5 more mistakes in ${PATH}`);
});
