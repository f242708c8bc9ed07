/** The MCP usage rubric's failure wording, on raw logs shaped as hel writes them. */
import { equal, match } from "node:assert/strict";
import { checkMcpUsage } from "./mcp_usage.ts";
import { LOOKUP } from "./_eval_helpers.ts";

const SPEC = {
  type: "mcp_usage" as const,
  id: "mcp-usage",
  server: "inventory",
  tool: "lookup_port",
  arguments: {},
  expect: "8443",
  edit_tool: "search_replace",
  server_log: ".hel/mcp/events.jsonl",
};

/** A run folder whose model asked for `call` and got `result` back. */
async function runWith(call: { name: string; args: unknown }, result: string) {
  const runDir = await Deno.makeTempDir({ prefix: "hel-mcp-usage-test-" });
  await Deno.mkdir(`${runDir}/raw`);
  const toolCall = {
    id: "call_1",
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.args) },
  };
  const entries = [
    {
      seq: 1,
      request: { messages: [{ role: "user", content: "go" }], tools: [] },
      response: { choices: [{ message: { role: "assistant", tool_calls: [toolCall] } }] },
    },
    {
      seq: 2,
      request: {
        messages: [
          { role: "assistant", tool_calls: [toolCall] },
          { role: "tool", tool_call_id: "call_1", content: result },
        ],
        tools: [],
      },
      response: { choices: [{ message: { role: "assistant", content: "done" } }] },
    },
  ];
  await Deno.writeTextFile(
    `${runDir}/raw/requests.jsonl`,
    entries.map((entry) => JSON.stringify(entry)).join("\n") + "\n",
  );
  return runDir;
}

Deno.test("a search that loads nothing counts as a loading call that did not load the tool", async () => {
  const runDir = await runWith(
    { name: "search_mcp_tools", args: { query: "port" } },
    "no tools match",
  );
  try {
    const { pass, detail } = await checkMcpUsage(runDir, SPEC);
    equal(pass, false);
    match(
      detail,
      new RegExp(
        `^1 loading call\\(s\\) \\(load_mcp_tool, search_mcp_tools\\), none successful naming ${LOOKUP}$`,
      ),
    );
  } finally {
    await Deno.remove(runDir, { recursive: true });
  }
});

Deno.test("without any loading call the detail says so and lists the calls made", async () => {
  const runDir = await runWith({ name: "read_file", args: { path: "config.ini" } }, "port = 80");
  try {
    const { detail } = await checkMcpUsage(runDir, SPEC);
    match(
      detail,
      new RegExp(
        `^no loading call \\(load_mcp_tool, search_mcp_tools\\) naming ${LOOKUP} ` +
          `\\(tools called: read_file\\)$`,
      ),
    );
  } finally {
    await Deno.remove(runDir, { recursive: true });
  }
});
