/**
 * Every tool of the real `@modelcontextprotocol/server-everything`, model-free: `hel mcp list
 * --json` shows each one offered (those it registers only for clients with roots, sampling and
 * elicitation included), its task-only tool excluded with the reason and its task-based ones not
 * registered at all, since hel declares no tasks; a run calls the tools no other test covers
 * (get-sum, get-env — whose environment holds none of hel's secrets — and the two toggles). The other tools have their own tests: npm_results_test (images, resources, links,
 * structured content, annotated messages), npm_everything_caps_test (roots, sampling),
 * elicitation_everything_test, npm_everything_lists_test (gzip-file-as-resource, resources,
 * prompts), npm_everything_test (echo, progress, cancellation).
 *
 * Needs `npx` and the npm registry (or a warm npm cache). Set HEL_SKIP_NPM_TESTS=1 to skip.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runHelInProcess } from "../_run.ts";
import { helMcpInProcess, mcpProject, toolMessage } from "../_mcp.ts";
import { scriptedModel } from "../_helpers.ts";
import { EVERYTHING, ignoreNpm as ignore, SLOW_START, warmNpx } from "../_npx.ts";

/** Every tool server-everything 2026.8.31 has, from its dist/tools folder. */
const OFFERED = [
  "echo",
  "get-annotated-message",
  "get-env",
  "get-resource-links",
  "get-resource-reference",
  "get-roots-list",
  "get-structured-content",
  "get-sum",
  "get-tiny-image",
  "gzip-file-as-resource",
  "toggle-simulated-logging",
  "toggle-subscriber-updates",
  "trigger-elicitation-request",
  "trigger-long-running-operation",
  "trigger-sampling-request",
  "trigger-url-elicitation",
];

Deno.test({
  name: "every tool of server-everything is offered, excluded with a reason, or absent by design",
  ignore,
  async fn() {
    await using project = await mcpProject(() => ({
      ev: { command: "npx", args: ["-y", EVERYTHING, "stdio"] },
    }));
    await warmNpx(project, EVERYTHING);
    const listed = await runHelInProcess([...SLOW_START, "mcp", "list", "--json"], {
      cwd: project.project,
    });
    assert.equal(listed.code, 0, listed.stderr);
    const server = JSON.parse(listed.stdout).servers.find((s: { name: string }) => s.name === "ev");
    assert.equal(server.status, "connected");
    const names = server.tools.map((tool: { serverName: string }) => tool.serverName).sort();
    assert.deepEqual(names, OFFERED);
    assert.deepEqual(
      server.excluded.map((e: { serverName: string }) => e.serverName),
      ["simulate-research-query"],
    );
    assert.match(server.excluded[0].reason, /only as an MCP task/);
    // The task-based tools register only for clients that declare tasks: absent, not excluded.
    for (const absent of ["trigger-elicitation-request-async", "trigger-sampling-request-async"]) {
      assert.ok(!names.includes(absent) && !JSON.stringify(server.excluded).includes(absent));
    }

    // The tools no other test calls, in one run (one start of the server): the model's calls
    // and what it read back.
    const calls = [
      { id: "sum", name: "mcp__ev__get-sum", arguments: { a: 2, b: 3 } },
      { id: "env", name: "mcp__ev__get-env", arguments: {} },
      { id: "log", name: "mcp__ev__toggle-simulated-logging", arguments: {} },
      { id: "sub", name: "mcp__ev__toggle-subscriber-updates", arguments: {} },
    ];
    await using model = scriptedModel([
      { toolCalls: [{ name: "load_mcp_tool", arguments: { names: calls.map((c) => c.name) } }] },
      { toolCalls: calls },
      { text: "done" },
    ]);
    const run = await helMcpInProcess(project, model, SLOW_START, {
      env: { HEL_API_KEY: "sk-secret-never-shared" },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(toolMessage(model, "sum"), "The sum of 2 and 3 is 5.");
    // The server's environment is the base hel gives servers: no model API key in it.
    assert.match(toolMessage(model, "env"), /"PATH":/);
    assert.doesNotMatch(toolMessage(model, "env"), /sk-secret-never-shared|HEL_API_KEY/);
    assert.match(toolMessage(model, "log"), /^Started simulated/);
    assert.match(toolMessage(model, "sub"), /^Started simulated/);
  },
});
