import assert from "node:assert/strict";
import { callMaximumMs, parseMcpConfig, validServerName } from "./config.ts";

const parse = (text: string) => parseMcpConfig(new TextEncoder().encode(text), ".hel/mcp.json");
/** An entry `{"command": "x"}` as parsed, with every default. */
const DEFAULTS = {
  name: "a",
  file: ".hel/mcp.json",
  command: "x",
  args: [],
  env: {},
  callTimeoutMs: 300_000,
  maxMessageBytes: 64 * 1024 * 1024,
  sandbox: true,
};

Deno.test("a full server entry, JSONC, servers in name order, defaults", () => {
  const result = parse(`{
    // two servers
    "servers": {
      "notes": {"command": "notes-mcp", "args": ["--dir", "notes"], "env": {"A": "1"}, "timeout": 2.5},
      "alpha": {"command": "python3",},
    },
  }`);
  assert.deepEqual(result, {
    ok: true,
    servers: [
      {
        name: "alpha",
        file: ".hel/mcp.json",
        command: "python3",
        args: [],
        env: {},
        callTimeoutMs: 300_000,
        maxMessageBytes: 64 * 1024 * 1024,
        sandbox: true,
      },
      {
        name: "notes",
        file: ".hel/mcp.json",
        command: "notes-mcp",
        args: ["--dir", "notes"],
        env: { A: "1" },
        callTimeoutMs: 2500,
        maxMessageBytes: 64 * 1024 * 1024,
        sandbox: true,
      },
    ],
  });
});

Deno.test("a file saved with a byte-order mark reads like one without", () => {
  assert.deepEqual(parse('\uFEFF{"servers": {"a": {"command": "x"}}}'), {
    ok: true,
    servers: [DEFAULTS],
  });
});

Deno.test("an empty server map is valid", () => {
  assert.deepEqual(parse('{"servers": {}}'), { ok: true, servers: [] });
});

Deno.test("syntax errors name line and column", () => {
  const result = parse('{\n  "servers": {"a": {"command": "x}\n}');
  assert.equal(result.ok, false);
  assert.match(
    result.ok ? "" : result.problems[0]!,
    /^\.hel\/mcp\.json:2:\d+: unterminated string/,
  );
});

Deno.test("wrong shapes name the field and the fix; nothing is guessed", () => {
  const cases: [string, RegExp][] = [
    ["", /the file is empty; write for example/],
    ["[]", /the top level must be an object/],
    ['{"server": {}}', /unknown field "server" \(did you mean "servers"\?\)/],
    ['{"servers": []}', /"servers" must be an object/],
    ['{"servers": {"a": {"command": ""}}}', /servers\."a"\.command must be a non-empty string/],
    [
      '{"servers": {"a": {"command": "x", "args": "a b"}}}',
      /servers\."a"\.args must be a list of strings/,
    ],
    [
      '{"servers": {"a": {"command": "x", "env": {"X": 1}}}}',
      /servers\."a"\.env\.X must be a string/,
    ],
    [
      '{"servers": {"a": {"command": "x", "timeout": "10s"}}}',
      /timeout must be a positive number of seconds/,
    ],
    ['{"servers": {"a": {"command": "x", "timeout": -1}}}', /timeout must be a positive number/],
    ['{"servers": {"a": {"args": []}}}', /servers\."a" needs a "command"/],
    [
      '{"servers": {"a": {"command": "x", "transport": "http"}}}',
      /servers\."a"\.transport is only for a server with a "url"; add the url or remove it/,
    ],
  ];
  for (const [text, expected] of cases) {
    const result = parse(text);
    assert.equal(result.ok, false, text);
    assert.match(result.ok ? "" : result.problems.join("\n"), expected, text);
  }
});

Deno.test("every mistake is reported, not only the first", () => {
  const result = parse('{"servers": {"a b": {"command": "x"}, "c": {"command": 1}}}');
  assert.equal(result.ok, false);
  assert.equal(result.ok ? 0 : result.problems.length, 2);
});

Deno.test("server names are letters, digits, '-' and single '_'", () => {
  for (const name of ["notes", "issue-tracker", "a_b", "X9"]) {
    assert.ok(validServerName(name), name);
  }
  for (const name of ["", "a__b", "a b", "a.b", "ü", "github_", "_a"]) {
    assert.ok(!validServerName(name), name);
  }
});

Deno.test("text that is not UTF-8 is refused", () => {
  const result = parseMcpConfig(new Uint8Array([0x7b, 0xff, 0x7d]), ".hel/mcp.json");
  assert.deepEqual(result, {
    ok: false,
    problems: [".hel/mcp.json: not valid UTF-8 text; save the file as UTF-8"],
  });
});

Deno.test("nesting too deep to parse is refused, not a crash", () => {
  const result = parse('{"servers": ' + "[".repeat(100_000) + "]".repeat(100_000) + "}");
  assert.match(result.ok ? "" : result.problems[0]!, /^\.hel\/mcp\.json: cannot be parsed/);
});

Deno.test("env passes hel's variables on only as a whole ${NAME}; other references are refused", () => {
  const result = parse(`{"servers": {"gh": {
    "command": "npx",
    "args": ["-c", "exec server-github --token \${TOKEN}"],
    "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "\${GITHUB_TOKEN}", "HOME_DIR": "$HOME", "P": "x$y",
            "FORMAT": "\${level} \${message}", "NOTES": "\${HOME:-/root}/notes",
            "LEVEL": "\${LEVEL:-warn}"}
  }}}`);
  assert.equal(result.ok, false);
  const problems = result.ok ? [] : result.problems;
  const fix = 'but hel expands only a whole value "${NAME}" (or "${NAME:-default}"), which ' +
    "passes hel's variable NAME on; write that, or the value itself";
  assert.deepEqual(problems.map((p) => p.replace(/^\S+: /, "")), [
    `servers."gh".env.HOME_DIR is "$HOME", ${fix}`,
    `servers."gh".env.NOTES is "\${HOME:-/root}/notes", ${fix}`,
  ]);
});

Deno.test("sandbox is true unless the entry says false; anything else is refused", () => {
  const ok = parse('{"servers": {"a": {"command": "x"}, "b": {"command": "y", "sandbox": false}}}');
  assert.deepEqual(ok.ok ? ok.servers.map((s) => [s.name, s.sandbox]) : [], [
    ["a", true],
    ["b", false],
  ]);
  const bad = parse('{"servers": {"a": {"command": "x", "sandbox": "off"}}}');
  assert.deepEqual(bad.ok ? [] : bad.problems, [
    '.hel/mcp.json:1:47: servers."a".sandbox must be true or false (no quotes); false runs the ' +
    "server outside the sandbox, with your rights; leave it out to keep the sandbox",
  ]);
});

Deno.test("trustAnnotations is set only by true; anything but a boolean is refused", () => {
  const ok = parse(
    '{"servers": {"a": {"command": "x", "trustAnnotations": true}, ' +
      '"b": {"command": "y", "trustAnnotations": false}}}',
  );
  assert.deepEqual(ok, {
    ok: true,
    servers: [{ ...DEFAULTS, trustAnnotations: true }, { ...DEFAULTS, name: "b", command: "y" }],
  });
  const bad = parse('{"servers": {"a": {"command": "x", "trustAnnotations": "yes"}}}');
  assert.deepEqual(bad.ok ? [] : bad.problems, [
    '.hel/mcp.json:1:56: servers."a".trustAnnotations must be true or false (no quotes); true ' +
    "lets the server's tools marked readOnlyHint count as reads (run without a question, even " +
    "read-only); leave it out to keep its hints untrusted",
  ]);
});

Deno.test("tools is an allowlist of the server's tool names, kept as written", () => {
  const result = parse('{"servers": {"a": {"command": "x", "tools": ["echo", "read_*", "a.b"]}}}');
  assert.deepEqual(result, {
    ok: true,
    servers: [{ ...DEFAULTS, tools: ["echo", "read_*", "a.b"] }],
  });
});

Deno.test("a wrong tools field names the place, the field and the fix", () => {
  const cases: [string, string][] = [
    [
      '{"servers": {"a": {"command": "x", "tools": "echo"}}}',
      '.hel/mcp.json:1:45: servers."a".tools must be a list of the server\'s tool names to offer ' +
      `('*' matches any run of characters), e.g. ["lookup_port", "read_*"]; leave it out to ` +
      "offer every tool",
    ],
    [
      '{"servers": {"a": {"command": "x", "tools": []}}}',
      '.hel/mcp.json:1:45: servers."a".tools is empty, which would offer no tool: list the tools ' +
      'to offer, e.g. ["lookup_port", "read_*"], leave it out to offer every tool, or remove the ' +
      "server",
    ],
    [
      '{"servers": {"a": {"command": "x", "tools": ["echo", "", 3, "  "]}}}',
      '.hel/mcp.json:1:54: servers."a".tools[1] must be a non-empty string naming one of the ' +
      `server's tools, e.g. "lookup_port" or "read_*"\n` +
      '.hel/mcp.json:1:58: servers."a".tools[2] must be a non-empty string naming one of the ' +
      `server's tools, e.g. "lookup_port" or "read_*"\n` +
      '.hel/mcp.json:1:61: servers."a".tools[3] must be a non-empty string naming one of the ' +
      `server's tools, e.g. "lookup_port" or "read_*"`,
    ],
    [
      '{"servers": {"a": {"command": "x", "tool": ["echo"]}}}',
      '.hel/mcp.json:1:36: unknown field servers."a".tool (did you mean "tools"?); allowed: ' +
      "command, args, env, timeout, tools, sandbox, logLevel, trustAnnotations, maxMessageBytes, url, transport, headers, " +
      "bearerTokenEnv, oauth",
    ],
    [
      '{"servers": {"a": {"command": "x", "tools": ["a"], "tools": ["b"]}}}',
      '.hel/mcp.json:1:52: servers."a".tools is written twice; keep one',
    ],
  ];
  for (const [text, expected] of cases) {
    const result = parse(text);
    assert.equal(result.ok ? "" : result.problems.join("\n"), expected, text);
  }
});

Deno.test("progress lets a call run 10 times its timeout, at most one day", () => {
  assert.equal(callMaximumMs(1_000), 10_000);
  assert.equal(callMaximumMs(300_000), 3_000_000);
  assert.equal(callMaximumMs(20_000_000), 86_400_000);
  assert.equal(callMaximumMs(86_400_000), 86_400_000);
});

Deno.test("maxMessageBytes is a whole number of bytes within bounds; anything else says the fix", () => {
  const entry = (value: string) =>
    parse(`{"servers": {"a": {"command": "x", "maxMessageBytes": ${value}}}}`);
  assert.deepEqual(entry("134217728"), {
    ok: true,
    servers: [{ ...DEFAULTS, maxMessageBytes: 134217728 }],
  });
  for (const bad of ['"64MiB"', "1.5", "100", "1e12"]) {
    const result = entry(bad);
    assert.equal(result.ok, false, bad);
    assert.match(
      (result as { problems: string[] }).problems[0]!,
      /servers\."a"\.maxMessageBytes must be a whole number of bytes from 65536 to 536870912 \(512 MiB\), e\.g\. 134217728 for 128 MiB; leave it out for the default of 64 MiB/,
    );
  }
});
