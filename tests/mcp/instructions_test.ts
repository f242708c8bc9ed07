/**
 * Server instructions (`instructions` in a server's initialize answer) reach the model in the
 * system message: per server, bounded, without terminal controls, deferred or eager.
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import {
  assertNoServerLeft,
  fixtureServer,
  helMcpInProcess,
  mcpProject,
  systemText,
} from "../_mcp.ts";

Deno.test("server instructions reach the model, cut and without controls; silent servers add nothing", async () => {
  await using project = await mcpProject((root) => ({
    guide: fixtureServer(
      root,
      "guide",
      "--instructions=Call lookup_port before editing a port.\\e[31m Never guess.",
    ),
    long: fixtureServer(root, "long", `--instructions=${"w".repeat(2_500)}`),
    quiet: fixtureServer(root, "quiet"),
  }));
  for (const eager of [false, true]) {
    await using model = scriptedModel([{ text: "done" }]);
    const result = await helMcpInProcess(project, model, eager ? ["--mcp-eager"] : []);
    assert.equal(result.code, 0, result.stderr);
    const system = systemText(model.requests[0]!);
    assert.match(
      system,
      /<server-instructions server="guide">\nCall lookup_port before editing a port\.\\u001b\[31m Never guess\.\n<\/server-instructions>/,
    );
    assert.ok(system.includes(`${"w".repeat(2_000)}… [cut at 2000 characters]`));
    assert.ok(!system.includes("w".repeat(2_001)));
    assert.doesNotMatch(system, /server="quiet"/);
    assert.ok(!system.includes("\x1b"), "no raw ESC reaches the model");
    // Deferred loading lists the catalog as well; eager loading has the definitions instead.
    assert.equal(/load_mcp_tool/.test(system), !eager);
    assert.equal(model.remaining(), 0);
  }
  await assertNoServerLeft(project);
});
