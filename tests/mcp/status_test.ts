/**
 * What the chat's `/mcp` and `/status` say of the MCP servers: the plugin's status lines from a
 * run in-process with the fixture server, as a server is connected, its tools loaded, a server
 * that failed to start, one that went away, and one the next call started again.
 *
 * @module
 */
import assert from "node:assert/strict";
import { NEVER, startTestRun } from "../../agent/run_testing.ts";
import { fakeChat } from "../../cli/chat/commands/testing.ts";
import { runSlashCommand } from "../../cli/chat/slash_commands.ts";
import mcp from "../../plugins/mcp/mod.ts";
import { assertNoServerLeft, fixtureServer, mcpProject } from "../_mcp.ts";

Deno.test("/mcp shows each server connected with its tools loaded, failed, or gone", async () => {
  await using project = await mcpProject((root) => ({
    t: fixtureServer(root, "t"),
    broken: fixtureServer(root, "broken", "--crash"),
  }));
  {
    await using t = await startTestRun({
      at: { project: project.project, helHome: `${project.root}/hel-home` },
      plugins: () => [mcp()],
      turns: {
        m: [
          { toolCalls: [{ name: "load_mcp_tool", arguments: { names: ["mcp__t__die"] } }] },
          { toolCalls: [{ name: "mcp__t__die", arguments: {} }] },
          { text: "it went away" },
          { toolCalls: [{ name: "load_mcp_tool", arguments: { names: ["mcp__t__echo"] } }] },
          { toolCalls: [{ name: "mcp__t__echo", arguments: { text: "hi" } }] },
          { text: "it is back" },
        ],
      },
    });
    const chat = fakeChat(t.run);
    await runSlashCommand("/mcp", chat.context);
    const [listing] = chat.printed;
    assert.match(listing!, /^t: connected, \d+ tools \(0 loaded\)$/m);
    assert.match(listing!, /^broken: skipped: .*exited during/m);
    assert.match(listing!, /hel mcp list shows each server's command, sandbox and tools$/);

    await t.run.turn("load die and call it", NEVER);
    await runSlashCommand("/status", chat.context);
    assert.match(chat.printed[1]!, /^ {2}mcp +broken: skipped: exited during /m);
    assert.match(
      chat.printed[1]!,
      /^ {12}t: disconnected \(it exited or closed the connection\); its \d+ tools \(1 loaded\) start it again when one is called$/m,
    );
    // The next call started it again; /mcp says so.
    await t.run.turn("call echo", NEVER);
    await runSlashCommand("/mcp", chat.context);
    assert.match(chat.printed[2]!, /^t: connected, \d+ tools \(2 loaded\), restarted 1 time$/m);
  }
  await assertNoServerLeft(project);
});
