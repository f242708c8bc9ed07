/**
 * MCP against the real `@modelcontextprotocol/server-everything` from npm, started through `npx`
 * as users configure it (version pinned): connect, list, load, call, an image result, a
 * long-running call cancelled by the per-call timeout, one kept alive by progress, and a
 * shutdown that leaves neither `npx` nor the node server behind. server-filesystem is in
 * npm_filesystem_test.ts (a file of its own, so the two run at the same time).
 *
 * Needs `npx` and the npm registry (or a warm npm cache). Set HEL_SKIP_NPM_TESTS=1 to skip.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import {
  assertNoServerLeft,
  helMcp,
  mcpProject,
  processesWithMarker,
  systemText,
  toolMessage,
} from "../_mcp.ts";
import { EVERYTHING, ignoreNpm as ignore, SLOW_START, warmNpx } from "../_npx.ts";

Deno.test({
  name:
    "server-everything from npm lists, loads, calls and returns an image; a long call is cancelled by timeout, one is kept alive by progress",
  ignore,
  async fn() {
    await using project = await mcpProject(() => ({
      everything: { command: "npx", args: ["-y", EVERYTHING, "stdio"], timeout: 2 },
    }));
    await warmNpx(project, EVERYTHING);
    let liveDuringRun = 0;
    const names = ["echo", "get-tiny-image", "trigger-long-running-operation"]
      .map((name) => `mcp__everything__${name}`);
    await using model = scriptedModel([
      (request) => {
        liveDuringRun = processesWithMarker(project.marker).length;
        for (const name of names) {
          assert.match(systemText(request), new RegExp(`^- ${name}: `, "m"));
        }
        return { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names } }] };
      },
      {
        toolCalls: [
          { id: "echo", name: names[0]!, arguments: { message: "hello from hel" } },
          { id: "image", name: names[1]!, arguments: {} },
          { id: "long", name: names[2]!, arguments: { duration: 30, steps: 5 } },
          // A report every half second restarts the 2 s timeout, so this 3 s call finishes.
          { id: "progress", name: names[2]!, arguments: { duration: 3, steps: 6 } },
          { id: "after", name: names[0]!, arguments: { message: "still here" } },
        ],
      },
      { text: "done" },
    ]);
    const result = await helMcp(project, model, SLOW_START);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(liveDuringRun >= 1, "the server was running during the run");
    assert.deepEqual(model.requests[1]!.toolNames, ["read_file", "load_mcp_tool", ...names]);
    assert.match(toolMessage(model, "echo"), /hello from hel/);
    assert.match(toolMessage(model, "image"), /\n\[image: image\/png, \d+\.\d KiB\]\n/);
    assert.match(
      toolMessage(model, "long"),
      /^error: MCP request tools\/call to everything timed out after 2 seconds; the request was cancelled/,
    );
    assert.match(toolMessage(model, "progress"), /^Long running operation completed\./);
    // The server survived the cancelled call.
    assert.match(toolMessage(model, "after"), /still here/);
    assert.equal(model.remaining(), 0);
    await assertNoServerLeft(project);
  },
});
