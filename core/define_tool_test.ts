import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { defineTool } from "./define_tool.ts";

const tool = defineTool({
  name: "probe",
  description: "a test tool",
  parameters: z.strictObject({
    path: z.string().min(1).describe("File path"),
    start_line: z.int().min(1).optional().describe("First line"),
    mode: z.enum(["fast", "slow"]).optional(),
    tags: z.array(z.string()).optional(),
  }),
  toolClass: "read",
  category: "read",
  run: (args) => Promise.resolve({ ok: true, text: `${args.path}:${args.start_line ?? 1}` }),
});

const problems = (args: Record<string, unknown>) => {
  const result = tool.checkArguments!(args);
  return result.ok ? [] : result.problems;
};

test("defineTool() derives the model's JSON Schema without zod's own keys", () => {
  assert.deepEqual(tool.parameters, {
    type: "object",
    properties: {
      path: { type: "string", minLength: 1, description: "File path" },
      start_line: { description: "First line", type: "integer", minimum: 1 },
      mode: { type: "string", enum: ["fast", "slow"] },
      tags: { type: "array", items: { type: "string" } },
    },
    required: ["path"],
    additionalProperties: false,
  });
});

test("defineTool() hands the checked arguments to run, null optional ones left out", async () => {
  const checked = tool.checkArguments!({ path: "a.txt", start_line: null, mode: "fast" });
  assert.deepEqual(checked, { ok: true, args: { path: "a.txt", mode: "fast" } });
  const signal = new AbortController().signal;
  assert.deepEqual(await tool.run(checked.ok ? checked.args : {}, { callId: "c", signal }), {
    ok: true,
    text: "a.txt:1",
  });
});

test("defineTool() names every problem: missing first, then each argument, unknown last", () => {
  assert.deepEqual(problems({}), ["path is required but missing"]);
  assert.deepEqual(problems({ path: null }), ["path is required but missing"]);
  assert.deepEqual(
    problems({ sudo: true, path: 7, start_line: 1.5, mode: "medium", tags: ["a", 2], x: 1 }),
    [
      "path must be a string, not integer",
      "start_line must be an integer, not number",
      'mode must be one of "fast", "slow"',
      "tags[1] must be a string, not integer",
      "unknown arguments sudo, x (this tool takes path, start_line, mode, tags)",
    ],
  );
  assert.deepEqual(problems({ path: "", start_line: 0 }), [
    "path must be a non-empty string",
    "start_line must be at least 1, not 0",
  ]);
});

test("defineTool() hands describeCall the checked arguments, and leaves it out when not given", async () => {
  const described = defineTool({
    name: "say",
    description: "a test tool",
    parameters: z.strictObject({ words: z.string() }),
    toolClass: "execute",
    category: "exec",
    describeCall: (args) =>
      Promise.resolve({
        preview: { kind: "command", command: `say ${args.words}`, cwd: "/p" },
        scope: undefined,
      }),
    run: () => Promise.resolve({ ok: true, text: "" }),
  });
  const checked = described.checkArguments!({ words: "hi" });
  assert.ok(checked.ok);
  assert.deepEqual(await described.describeCall!(checked.args), {
    preview: { kind: "command", command: "say hi", cwd: "/p" },
    scope: undefined,
  });
  assert.equal(tool.describeCall, undefined);
});
