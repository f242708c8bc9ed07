/**
 * The MCP plugin's `--mcp-eager` switch, which `deno task bench` uses to compare
 * deferred loading with sending every definition up front through the same harness.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createTrustFileStore } from "../../kit/mod.ts";
import { REPO_ROOT, scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

Deno.test("--mcp-eager puts every definition in the first request, no loader, callable at once", async () => {
  await using project = await tempProject({ "notes.txt": "hi\n" });
  // Inside the project: the sandboxed server can write nowhere else that hel can read.
  const log = `${project.project}/t.jsonl`;
  const config = {
    servers: {
      t: { command: "python3", args: [`${REPO_ROOT}/fixtures/mcp/test_server.py`, "--log", log] },
    },
  };
  await project.write(".hel/mcp.json", JSON.stringify(config));
  await createTrustFileStore(`${project.root}/hel-home`, (m) => assert.fail(m))
    .record("mcp", project.project, await Deno.readFile(`${project.project}/.hel/mcp.json`));
  await using model = scriptedModel([
    { toolCalls: [{ id: "c1", name: "mcp__t__echo", arguments: { text: "eager hello" } }] },
    { text: "done" },
  ]);
  const result = await runHelInProcess([
    "--base-url",
    model.url,
    "--model",
    "m",
    "--no-env",
    "--access",
    "auto",
    "--tools",
    "read_file",
    "--mcp-eager",
    "go",
  ], { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  const first = model.requests[0]!;
  assert.ok(first.toolNames.includes("mcp__t__echo"), first.toolNames.join(", "));
  assert.ok(!first.toolNames.includes("load_mcp_tool"), first.toolNames.join(", "));
  assert.equal(first.toolNames[0], "read_file");
  assert.doesNotMatch(String(first.messages[0]?.content), /call load_mcp_tool/);
  const answer = model.requests[1]!.messages.find((m) => m.tool_call_id === "c1");
  assert.match(String(answer?.content), /eager hello/);
  const calls = (await Deno.readTextFile(log)).split("\n").filter(Boolean).map((l) => JSON.parse(l))
    .filter((m) => m.method === "tools/call");
  assert.equal(calls.length, 1);
  assert.equal(model.remaining(), 0);
});
