/**
 * A remote server whose connection hel dropped (an answer over the entry's `maxMessageBytes`)
 * is reconnected by the next call, as a stdio server that exited is restarted: through the real
 * CLI with the scripted model and the SDK's Streamable HTTP fixture server.
 *
 * @module
 */
import assert from "node:assert/strict";
import { REPO_ROOT, scriptedModel, tempProject } from "../_helpers.ts";
import { helMcpInProcess, readLog, toolMessage, trustMcp } from "../_mcp.ts";

Deno.test("a remote server hel dropped is reconnected by the next call", async () => {
  await using project = await tempProject();
  const portFile = `${project.root}/port`;
  const server = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${REPO_ROOT}/fixtures/mcp/http_server.ts`,
      "--log",
      `${project.root}/headers.jsonl`,
      "--port-file",
      portFile,
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    for (let i = 0; i < 300; i++) {
      if (await Deno.stat(portFile).then(() => true, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const url = `http://127.0.0.1:${await Deno.readTextFile(portFile)}/mcp`;
    await project.write(
      ".hel/mcp.json",
      JSON.stringify({ servers: { api: { url, maxMessageBytes: 1024 * 1024 } } }),
    );
    await trustMcp(project);
    await using model = scriptedModel([
      {
        toolCalls: [{
          name: "load_mcp_tool",
          arguments: { names: ["mcp__api__big", "mcp__api__whoami"] },
        }],
      },
      { toolCalls: [{ id: "big", name: "mcp__api__big", arguments: {} }] },
      { toolCalls: [{ id: "after", name: "mcp__api__whoami", arguments: {} }] },
      { text: "done" },
    ]);
    const result = await helMcpInProcess(project, model, [
      "--record",
      `${project.root}/run/record.json`,
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      toolMessage(model, "big"),
      /^error: MCP server api went away while this call was running \(it sent a message over 1 MiB, more than hel reads from it \("maxMessageBytes" in its mcp\.json entry\), so hel closed the connection\)/,
    );
    assert.equal(toolMessage(model, "after"), "ok");
    const trace = await readLog(`${project.root}/run/raw/mcp.jsonl`);
    assert.deepEqual(trace.filter((e) => e.event === "restarted").map((e) => e.server), ["api"]);
    const last = model.requests.at(-1)!.messages.map((m) => String(m.content)).join("\n");
    assert.match(last, /MCP server api was restarted \(it sent a message over 1 MiB/);
    assert.equal(model.remaining(), 0);
  } finally {
    server.kill("SIGTERM");
    await server.status;
  }
});
