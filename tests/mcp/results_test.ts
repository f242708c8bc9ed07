/**
 * Results a client must not take at face value, from an SDK server of the test suite
 * (fixtures/mcp/results_server.ts): structured content that breaks the tool's outputSchema or is
 * missing, content that breaks the protocol's shape, empty results of every kind, and an image
 * repeated as base64 in structuredContent — what the model received for each.
 *
 * @module
 */
import assert from "node:assert/strict";
import { REPO_ROOT, scriptedModel } from "../_helpers.ts";
import { helMcpInProcess, mcpProject, type ServerEntry, toolMessage } from "../_mcp.ts";
import { moduleCache } from "../_sdk_server.ts";

/**
 * The SDK fixture, run by this Deno with the repository's import map and its module cache
 * (`--cached-only`: inside the sandbox nothing may be fetched, as tests/_sdk_server.ts does).
 */
export function resultsServer(): ServerEntry {
  return {
    command: Deno.execPath(),
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--cached-only",
      `--config=${REPO_ROOT}/deno.json`,
      `${REPO_ROOT}/fixtures/mcp/results_server.ts`,
    ],
    env: { DENO_DIR: moduleCache() },
  };
}

/** A Deno server takes a few seconds to start on a busy machine. */
export const DENO_START = ["--mcp-startup-timeout", "60"];

/** What hel tells the model of a server's malformed result. */
const mistake = (tool: string, problem: string) =>
  `error: MCP server r answered ${tool} with a result the protocol does not allow: ${problem}. ` +
  "This is the server's mistake, not your call's; retrying the same call will not help. " +
  "Continue without this result, or tell the user the tool is broken.";

Deno.test("outputSchema mismatches, malformed and empty results reach the model as what they are", async () => {
  await using project = await mcpProject(() => ({ r: resultsServer() }));
  const calls = [
    ["weather", "good"],
    ["weather", "wrong-type"],
    ["weather", "missing"],
    ["weather", "error"],
    ["malformed", "string-content"],
    ["malformed", "number-block"],
    ["malformed", "textless"],
    ["malformed", "bad-base64"],
    ["malformed", "bad-mime"],
    ["malformed", "structured-list"],
    ["empty", "none"],
    ["empty", "blank"],
    ["empty", "absent"],
    ["empty", "error"],
  ];
  await using model = scriptedModel([
    {
      toolCalls: [{
        name: "load_mcp_tool",
        arguments: {
          names: ["weather", "malformed", "empty", "media-file"].map((n) => `mcp__r__${n}`),
        },
      }],
    },
    {
      toolCalls: [
        ...calls.map(([tool, which]) => ({
          id: `${tool}/${which}`,
          name: `mcp__r__${tool}`,
          arguments: { case: which },
        })),
        { id: "media-file", name: "mcp__r__media-file", arguments: {} },
      ],
    },
    { text: "done" },
  ]);
  const result = await helMcpInProcess(project, model, DENO_START);
  assert.equal(result.code, 0, result.stderr);
  const got = (id: string) => toolMessage(model, id);

  assert.equal(got("weather/good"), `{"temperature":21,"conditions":"Sunny"}`, result.stderr);
  assert.equal(
    got("weather/wrong-type"),
    mistake(
      "weather",
      `its structuredContent does not match the tool's outputSchema (temperature must be number (it is "hot"))`,
    ),
  );
  assert.equal(
    got("weather/missing"),
    mistake(
      "weather",
      'the tool declares an outputSchema but the result has no "structuredContent"',
    ),
  );
  // An error result is not held to the schema.
  assert.equal(got("weather/error"), "error: the weather service is down");

  assert.equal(
    got("malformed/string-content"),
    mistake("malformed", 'its "content" is "hello", not a list'),
  );
  assert.equal(
    got("malformed/number-block"),
    mistake("malformed", "content[1] is a number, not a block object"),
  );
  assert.equal(
    got("malformed/textless"),
    mistake("malformed", 'content[0] is a text block without a "text" string'),
  );
  assert.equal(
    got("malformed/bad-base64"),
    mistake("malformed", 'content[0] (image) "data" is not base64'),
  );
  assert.equal(
    got("malformed/bad-mime"),
    mistake(
      "malformed",
      'content[0] (image) has mimeType "\\u001b[31mpng", not a MIME type such as image/png',
    ),
  );
  assert.equal(
    got("malformed/structured-list"),
    mistake("malformed", 'its "structuredContent" is not an object'),
  );

  for (const which of ["none", "blank", "absent"]) {
    assert.equal(got(`empty/${which}`), "(empty result)");
  }
  assert.equal(
    got("empty/error"),
    "error: the tool reported an error without saying what went wrong",
  );

  // The image's data is not repeated as text: the structured result names the block instead.
  assert.equal(
    got("media-file"),
    "[image: image/png, 68 B]\n" +
      '{"content":[{"type":"image","data":"[image/png, 68 B of base64 data, the same as ' +
      'content[0]; not repeated]","mimeType":"image/png"}]}',
  );
  assert.equal(model.remaining(), 0);
});
