/**
 * Start-up failures people can read: a Node server that throws at start is reported with the
 * line naming its error, not with `} | } | Node.js v20.20.2`; a server that misses the startup
 * deadline is reported with what it wrote while starting, not with what hel's own shutdown made
 * it write (npx's "npm error signal SIGTERM").
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import { assertNoServerLeft, helMcp, mcpProject, NODE_FAULT_SERVER, systemText } from "../_mcp.ts";

Deno.test("a Node server that throws at start and one that misses the deadline show the lines saying why", async () => {
  await using project = await mcpProject(() => ({
    crash: { command: "node", args: [NODE_FAULT_SERVER, "--throw"] },
    // Outside the sandbox the server itself receives hel's SIGTERM (inside, bubblewrap does).
    slow: { command: "node", args: [NODE_FAULT_SERVER, "--slow"], sandbox: false },
  }));
  await using model = scriptedModel([{ text: "done" }]);
  const result = await helMcp(project, model, ["--mcp-startup-timeout", "2"]);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(
    result.stderr.includes(
      "MCP server crash skipped: exited during initialize (it exited with code 1); its stderr " +
        "ends: notes-mcp 1.4.0 starting (stdio) | Error: cannot open the notes index | " +
        "[cause]: Error: ENOENT: no such file or directory, open '/data/notes/index.db'\n",
    ),
    result.stderr,
  );
  assert.ok(
    result.stderr.includes(
      "MCP server slow skipped: did not finish initialize within the startup time (2 s); hel " +
        "stopped it. Run the command by hand to check that it answers MCP on its standard " +
        "output; its stderr ends: notes-mcp 1.4.0: building the search index (this takes a " +
        "while)\n",
    ),
    result.stderr,
  );
  assert.doesNotMatch(result.stderr, /Node\.js v\d|npm error/);
  assert.doesNotMatch(systemText(model.requests[0]!), /mcp__/);
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});
