/**
 * Every tool of the real `@modelcontextprotocol/server-everything`, model-free: `hel mcp list
 * --json` shows each one offered (those it registers only for clients with roots, sampling and
 * elicitation included), its task-only tool excluded with the reason and its task-based ones not
 * registered at all, since hel declares no tasks; `hel mcp call` runs the tools no other test
 * covers (get-sum, get-env — whose environment holds none of hel's secrets — and the two
 * toggles). The other tools have their own tests: npm_results_test (images, resources, links,
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
import { mcpProject } from "../_mcp.ts";
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
    const hel = (...args: string[]) =>
      runHelInProcess([...SLOW_START, "mcp", ...args], {
        cwd: project.project,
        env: { HEL_API_KEY: "sk-secret-never-shared" },
      });

    const listed = await hel("list", "--json");
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

    const sum = await hel("call", "ev", "get-sum", '{"a": 2, "b": 3}');
    assert.deepEqual([sum.code, sum.stdout], [0, "The sum of 2 and 3 is 5.\n"]);

    // The server's environment is the base hel gives servers: no model API key in it.
    const env = await hel("call", "ev", "get-env");
    assert.equal(env.code, 0, env.stderr);
    assert.match(env.stdout, /"PATH":/);
    assert.doesNotMatch(env.stdout, /sk-secret-never-shared|HEL_API_KEY/);

    for (const toggle of ["toggle-simulated-logging", "toggle-subscriber-updates"]) {
      const result = await hel("call", "ev", toggle);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^(Started|Stopped) /, `${toggle}: ${result.stdout}`);
    }
  },
});
