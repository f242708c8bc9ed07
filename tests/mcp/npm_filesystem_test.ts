/**
 * MCP against the real `@modelcontextprotocol/server-filesystem` from npm, started through `npx`
 * as users configure it (version pinned): a project file read through MCP, the server's own
 * refusal outside its root, and nothing left after exit.
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
  name: "server-filesystem from npm reads a project file through MCP; nothing is left after exit",
  ignore,
  async fn() {
    await using project = await mcpProject((root) => ({
      fs: { command: "npx", args: ["-y", FILESYSTEM, `${root}/project`] },
    }), { files: { "notes/todo.txt": "ship the MCP plugin\n" } });
    await warmNpx(project, FILESYSTEM);
    await using model = scriptedModel([
      {
        toolCalls: [{
          name: "load_mcp_tool",
          arguments: { names: ["mcp__fs__read_text_file", "mcp__fs__list_directory"] },
        }],
      },
      {
        toolCalls: [
          {
            id: "read",
            name: "mcp__fs__read_text_file",
            arguments: { path: `${project.project}/notes/todo.txt` },
          },
          {
            id: "list",
            name: "mcp__fs__list_directory",
            arguments: { path: `${project.project}/notes` },
          },
          { id: "outside", name: "mcp__fs__read_text_file", arguments: { path: "/etc/hostname" } },
        ],
      },
      { text: "done" },
    ]);
    const result = await helMcp(project, model, SLOW_START);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(toolMessage(model, "read"), "ship the MCP plugin\n");
    assert.match(toolMessage(model, "list"), /\[FILE\] todo\.txt/);
    // The server's own refusal comes back as an error result; the loop went on.
    assert.match(toolMessage(model, "outside"), /^error: /);
    assert.equal(model.remaining(), 0);
    await assertNoServerLeft(project);
  },
});
