/**
 * The task's inventory server, through the MCP SDK's client: with `--extra-tools` it answers
 * the tools it lists, and a name it never listed gets the unknown-tool error, as a real
 * server's would (a model guessing names must not be told they worked).
 */
import { deepEqual, equal, match, rejects } from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPO_ROOT } from "../tests/_helpers.ts";
import { TASK } from "./_eval_helpers.ts";

const SERVER = `${REPO_ROOT}/evals/tasks/${TASK}/fixture/.hel/mcp/inventory.py`;

Deno.test("with --extra-tools the inventory answers its generated tools and refuses unknown names", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "hel-inventory-test-" });
  const client = new Client({ name: "inventory-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: "python3",
      args: [SERVER, "--extra-tools", "3"],
      cwd,
      stderr: "ignore",
    }),
  );
  try {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    deepEqual(names, ["list_services", "lookup_port", ...names.slice(2)]);
    equal(names.length, 5);
    const generated = await client.callTool({ name: names[4]!, arguments: { project: "p" } });
    deepEqual(generated.content, [
      { type: "text", text: `${names[4]}: done with {"project": "p"}` },
    ]);
    await rejects(
      client.callTool({ name: "deploy_launch_rocket", arguments: {} }),
      (error: Error) => {
        match(error.message, /unknown tool: deploy_launch_rocket/);
        return true;
      },
    );
  } finally {
    await client.close();
    await Deno.remove(cwd, { recursive: true });
  }
});
