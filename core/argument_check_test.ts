import assert from "node:assert/strict";
import { test } from "node:test";
import { argumentProblems } from "./argument_check.ts";

const schema = {
  type: "object",
  properties: {
    path: { type: "string" },
    count: { type: "integer" },
    ratio: { type: "number" },
    mode: { type: "string", enum: ["fast", "slow"] },
    either: { type: ["string", "null"] },
    free: {},
  },
  required: ["path"],
  additionalProperties: false,
};

test("argumentProblems() accepts fitting calls, null optional arguments and integers as numbers", () => {
  assert.deepEqual(argumentProblems(schema, { path: "a", count: 2, ratio: 2, mode: "fast" }), []);
  assert.deepEqual(
    argumentProblems(schema, { path: "a", count: null, either: null, free: [1] }),
    [],
  );
});

test("argumentProblems() names every problem: missing, type, enum, unknown", () => {
  assert.deepEqual(
    argumentProblems(schema, { count: 1.5, mode: "medium", ratio: "1", x: 1, y: 2 }),
    [
      "path is required but missing",
      "count must be an integer, not number",
      'mode must be one of "fast", "slow"',
      "ratio must be a number, not string",
      "unknown arguments x, y (this tool takes path, count, ratio, mode, either, free)",
    ],
  );
  assert.deepEqual(argumentProblems(schema, { path: null }), ["path is required but missing"]);
});

test("argumentProblems() leaves schemas it does not understand to the tool", () => {
  assert.deepEqual(argumentProblems(undefined, { any: 1 }), []);
  assert.deepEqual(argumentProblems({ type: "string" }, { any: 1 }), []);
  assert.deepEqual(argumentProblems({ type: "object" }, { any: 1 }), []);
  assert.deepEqual(
    argumentProblems({ type: "object", properties: { a: { type: { not: "x" } } } }, { a: 1 }),
    [],
  );
});
