/**
 * The real `@modelcontextprotocol/server-everything` from npm against the capabilities hel
 * declares: the tools it registers only for clients with roots and sampling appear,
 * `get-roots-list` reports the project, `trigger-sampling-request` gets hel's decline, the log
 * level hel asks for is honoured (its roots "info" message is sent only when the entry's
 * `logLevel` asks for info), and its task-only tool is excluded with the reason.
 *
 * Needs `npx` and the npm registry (or a warm npm cache). Set HEL_SKIP_NPM_TESTS=1 to skip.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runHel, scriptedModel } from "../_helpers.ts";
import { assertNoServerLeft, helMcpTraced, mcpProject, systemText, toolMessage } from "../_mcp.ts";
import { EVERYTHING, ignoreNpm as ignore, SLOW_START, warmNpx } from "../_npx.ts";
import { fileUri } from "../../plugins/mcp/roots.ts";
import { SAMPLING_DECLINED } from "../../plugins/mcp/sampling.ts";

Deno.test({
  name:
    "server-everything offers its roots and sampling tools: roots name the project, sampling is declined, the log level holds",
  ignore,
  async fn() {
    await using project = await mcpProject(() => ({
      ev: { command: "npx", args: ["-y", EVERYTHING, "stdio"], logLevel: "info" },
      quiet: { command: "npx", args: ["-y", EVERYTHING, "stdio"] },
    }));
    await warmNpx(project, EVERYTHING);
    const roots = "mcp__ev__get-roots-list";
    const sample = "mcp__ev__trigger-sampling-request";
    const quietRoots = "mcp__quiet__get-roots-list";
    await using model = scriptedModel([
      (request) => {
        const system = systemText(request);
        for (const name of [roots, sample, quietRoots]) {
          assert.match(system, new RegExp(`^- ${name}: `, "m"));
        }
        // Tasks are not declared: the task tools are not registered or are excluded.
        assert.doesNotMatch(system, /simulate-research-query|trigger-sampling-request-async/);
        return {
          toolCalls: [{
            id: "load",
            name: "load_mcp_tool",
            arguments: { names: [roots, sample, quietRoots] },
          }],
        };
      },
      {
        toolCalls: [
          { id: "roots", name: roots, arguments: {} },
          { id: "sample", name: sample, arguments: { prompt: "say hi", maxTokens: 5 } },
          { id: "quiet", name: quietRoots, arguments: {} },
        ],
      },
      { text: "done" },
    ]);
    const { result, trace } = await helMcpTraced(project, model, SLOW_START, { run: runHel });
    const name = project.project.split("/").at(-1);
    assert.match(
      toolMessage(model, "roots"),
      new RegExp(
        `^Current MCP Roots \\(1 total\\):\\n\\n1\\. ${name}\\n {3}URI: ${
          fileUri(project.project).replaceAll(".", "\\.")
        }\\n`,
      ),
    );
    assert.equal(toolMessage(model, "sample"), `error: MCP error -1: ${SAMPLING_DECLINED}`);
    assert.equal(
      result.stderr.match(
        /MCP tool "simulate-research-query" of server \w+ excluded: it runs only as an MCP task/g,
      )?.length,
      2,
      result.stderr,
    );
    // The server sends its roots message at info: only the entry that asked for info gets it.
    const logs = (await trace)
      .filter((entry) => entry.event === "log");
    // (Sent once, or twice when its own start-up sync and the call's overlap.)
    const sent = new Set(
      logs.map((entry) => JSON.stringify([entry.server, entry.level, entry.data])),
    );
    assert.deepEqual([...sent].map((entry) => JSON.parse(entry)), [
      ["ev", "info", "Roots updated: 1 root(s) received from client"],
    ]);
    assert.equal(model.remaining(), 0);
    await assertNoServerLeft(project);
  },
});
