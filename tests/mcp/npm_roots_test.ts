/**
 * `@modelcontextprotocol/server-filesystem` from npm started WITHOUT directory arguments, the
 * configuration roots-aware clients use: it asks hel for its roots and works in the project
 * (before hel declared roots it listed its tools and then failed every call).
 *
 * Needs `npx` and the npm registry (or a warm npm cache). Set HEL_SKIP_NPM_TESTS=1 to skip.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import { assertNoServerLeft, helMcp, mcpProject, toolMessage } from "../_mcp.ts";
import { FILESYSTEM, ignoreNpm as ignore, SLOW_START, warmNpx } from "../_npx.ts";

Deno.test({
  name: "server-filesystem without directory arguments works in the project through roots",
  ignore,
  async fn() {
    await using project = await mcpProject(() => ({
      fs: { command: "npx", args: ["-y", FILESYSTEM] },
    }), { files: { "notes/todo.txt": "ship roots\n" } });
    await warmNpx(project, FILESYSTEM);
    await using model = scriptedModel([
      {
        toolCalls: [{
          name: "load_mcp_tool",
          arguments: {
            names: ["mcp__fs__list_allowed_directories", "mcp__fs__read_text_file"],
          },
        }],
      },
      {
        toolCalls: [
          { id: "allowed", name: "mcp__fs__list_allowed_directories", arguments: {} },
          {
            id: "read",
            name: "mcp__fs__read_text_file",
            arguments: { path: `${project.project}/notes/todo.txt` },
          },
          { id: "outside", name: "mcp__fs__read_text_file", arguments: { path: "/etc/hostname" } },
        ],
      },
      { text: "done" },
    ]);
    const result = await helMcp(project, model, SLOW_START);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      toolMessage(model, "allowed"),
      `Allowed directories:\n${await Deno.realPath(project.project)}`,
    );
    assert.equal(toolMessage(model, "read"), "ship roots\n");
    // The root is the project alone: the server refuses what lies outside it.
    assert.match(toolMessage(model, "outside"), /^error: .*outside allowed directories/i);
    assert.equal(model.remaining(), 0);
    await assertNoServerLeft(project);
  },
});
