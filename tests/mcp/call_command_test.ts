/**
 * Model-free use: `hel mcp call SERVER TOOL [JSON]` through the real command line (the result
 * as the model reads it, server text escaped, exit 0 / 1 / 2, only that server started, trust
 * as `hel mcp list` has it) and `hel mcp list --json` (files, servers, tools under both names,
 * exclusions and reasons, ASCII only).
 *
 * @module
 */
import assert from "node:assert/strict";
import { runHelInProcess } from "../_run.ts";
import {
  FAST,
  fixtureServer,
  type McpProject,
  mcpProject,
  readLog,
  receivedCalls,
} from "../_mcp.ts";

/** `hel mcp ...args`; stderr without the warning a run as root adds (CI containers). */
async function hel(project: McpProject, ...args: string[]) {
  const result = await runHelInProcess([...FAST, "mcp", ...args], { cwd: project.project });
  const stderr = result.stderr.split("\n").filter((line) => !line.includes("hel runs as root"));
  return { ...result, stderr: stderr.join("\n") };
}

Deno.test("hel mcp call prints the converted result, escaped, and exits 0, 1 on an error result, 2 on usage", async () => {
  await using project = await mcpProject((root) => ({
    t: { ...fixtureServer(root, "t"), tools: ["echo", "fail", "image", "a.b", "noschema"] },
    other: fixtureServer(root, "other"),
  }));
  let result = await hel(project, "call", "t", "echo", '{"text": "hi \\u001b[31mred"}');
  assert.deepEqual(result, { code: 0, stdout: "hi \\u001b[31mred\n", stderr: "" });
  // Only the server asked for was started; it received the call with its arguments.
  assert.deepEqual(await receivedCalls(project.logPath("t")), [
    { name: "echo", arguments: { text: "hi \u001b[31mred" } },
  ]);
  assert.deepEqual(await readLog(project.logPath("other")), []);

  result = await hel(project, "call", "t", "image");
  assert.deepEqual(result, { code: 0, stdout: "[image: image/png, 8 B]\ncaption\n", stderr: "" });
  // The model-facing name works too, and reaches the server's own name.
  result = await hel(project, "call", "t", "mcp__t__a_b");
  assert.deepEqual(result, { code: 0, stdout: "dotted\n", stderr: "" });

  result = await hel(project, "call", "t", "fail", "{}");
  assert.deepEqual(result, { code: 1, stdout: "", stderr: "error: tool failed\n" });

  const usage: [string[], string][] = [
    [["t", "echo", "{bad"], "the arguments are not valid JSON ("],
    [
      ["t", "echo", "[1]"],
      `the arguments must be a JSON object; give one JSON object, e.g. '{"path": "README.md"}'`,
    ],
    [["nope", "echo"], 'no MCP server named "nope"; configured: other, t'],
    [
      ["t", "echo", "{}"],
      "the arguments do not fit echo's inputSchema: text is required but missing",
    ],
    [["t", "nosuch"], 'MCP server t has no tool "nosuch"; its tools: a.b, echo, fail, image'],
    [["t", "big"], `tool "big" of t is left out by its "tools" list in .hel/mcp.json`],
    [
      ["t", "noschema"],
      'tool "noschema" of t is excluded: it has no object inputSchema (model APIs need "type": "object")',
    ],
  ];
  for (const [args, message] of usage) {
    result = await hel(project, "call", ...args);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.equal(result.stdout, "");
    assert.ok(
      result.stderr.startsWith(`hel mcp call: ${message}`),
      `${args.join(" ")}: ${result.stderr}`,
    );
  }
  // None of the refused calls reached the server.
  assert.equal((await receivedCalls(project.logPath("t"))).length, 4);
});

Deno.test("hel mcp call starts nothing from an untrusted project file and says how to trust it", async () => {
  await using project = await mcpProject((root) => ({ t: fixtureServer(root, "t") }), {
    trusted: false,
  });
  const result = await hel(project, "call", "t", "echo", '{"text": "x"}');
  assert.equal(result.code, 2);
  assert.match(
    result.stderr,
    /^hel mcp call: \.hel\/mcp\.json \(sha256 [0-9a-f]{64}\) is not trusted for this project, so server t does not start\. Review it with "hel trust mcp", or pin these bytes with "hel trust mcp --sha256 [0-9a-f]{64}"\n$/,
  );
  assert.deepEqual(await readLog(project.logPath("t")), []);
});

Deno.test("hel mcp list --json: files, servers, tools under both names, exclusions, all in ASCII", async () => {
  await using project = await mcpProject((root) => ({
    t: { ...fixtureServer(root, "t"), tools: ["echo", "a.b", "noschema", "zzz"] },
    hostile: fixtureServer(root, "hostile", "--hostile-tools"),
    gone: { command: "/nonexistent/mcp-server" },
  }));
  const result = await hel(project, "list", "--json");
  assert.equal(result.code, 1, result.stderr);
  // No control, bidi or other non-ASCII character reaches the terminal.
  assert.match(result.stdout, /^[\x20-\x7e\n]*$/);
  const report = JSON.parse(result.stdout);
  assert.equal(report.ok, false);
  assert.deepEqual(report.files.map((file: { status: string }) => file.status), [
    "absent",
    "trusted",
  ]);
  assert.deepEqual(report.clashes, []);
  const [gone, hostile, t] = report.servers;
  assert.equal(gone.name, "gone");
  assert.equal(gone.status, "skipped");
  assert.match(gone.reason, /not found/);
  assert.equal(t.status, "connected");
  assert.equal(t.scope, "project");
  assert.equal(t.file, ".hel/mcp.json");
  assert.equal(t.sandboxed, true);
  assert.deepEqual(t.environment.own, ["HEL_TEST_MARKER"]);
  assert.deepEqual(
    t.tools.map((tool: { name: string; serverName: string }) => [tool.name, tool.serverName]),
    [
      ["mcp__t__a_b", "a.b"],
      ["mcp__t__echo", "echo"],
    ],
  );
  // Server text is kept whole: JSON escapes carry it.
  assert.equal(
    hostile.tools.find((tool: { serverName: string }) => tool.serverName === "bash").description,
    "\u001b[2J\u001b[31mcleared\u001b[0m \u202egnp.exe\u202c and a bell\u0007",
  );
  assert.deepEqual(t.excluded, [
    {
      serverName: "noschema",
      reason: 'it has no object inputSchema (model APIs need "type": "object")',
    },
  ]);
  assert.deepEqual(t.toolsFilter, {
    entries: ["echo", "a.b", "noschema", "zzz"],
    leftOut: 10,
    unmatched: ["zzz"],
  });
  assert.equal(t.callTimeoutSeconds, 300);
  // `hel mcp --json` is `hel mcp list --json`.
  const alone = await hel(project, "--json");
  assert.equal(alone.code, 1);
  assert.deepEqual(
    JSON.parse(alone.stdout).servers.map((server: { name: string }) => server.name),
    ["gone", "hostile", "t"],
  );
});
