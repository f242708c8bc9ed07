import assert from "node:assert/strict";
import { test } from "node:test";
import {
  compileSchemaCheck,
  MAX_SCHEMA_CHARS,
  type SchemaCheck,
  schemaValidator,
} from "./schema_check.ts";

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

async function compiled(value: Record<string, unknown>): Promise<SchemaCheck> {
  const check = await compileSchemaCheck(value);
  assert.equal(typeof check, "function", JSON.stringify(check));
  return check as SchemaCheck;
}

const problems = (check: SchemaCheck, args: Record<string, unknown>) => {
  const result = check(args);
  return result.ok ? [] : result.problems;
};

test("a JSON Schema check accepts fitting calls, null optional arguments and integers as numbers", async () => {
  const check = await compiled(schema);
  assert.deepEqual(problems(check, { path: "a", count: 2, ratio: 2, mode: "fast" }), []);
  // The arguments go on as sent: the server receives what the model wrote.
  const args = { path: "a", count: null, either: null, free: [1] };
  assert.deepEqual(check(args), { ok: true, args });
});

test("a JSON Schema check names every problem: missing, type, enum, unknown", async () => {
  const check = await compiled(schema);
  assert.deepEqual(
    problems(check, { count: 1.5, mode: "medium", ratio: "1", x: 1, y: 2 }),
    [
      "path is required but missing",
      "count must be an integer, not number",
      "ratio must be a number, not string",
      'mode must be one of "fast", "slow"',
      "unknown arguments x, y (this tool takes path, count, ratio, mode, either, free)",
    ],
  );
  assert.deepEqual(problems(check, { path: null }), ["path is required but missing"]);
});

test("a JSON Schema check reports nested problems and other keywords by their place", async () => {
  const check = await compiled({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      tags: { type: "array", items: { type: "string" } },
      limit: { type: "integer", minimum: 1 },
    },
  });
  assert.deepEqual(problems(check, { tags: ["a", 2], limit: 0 }), [
    "tags[1] must be a string, not integer",
    "limit must be >= 1",
  ]);
});

test("hostile schemas are refused with a reason, never fetched or thrown", async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ $ref: "https://evil.invalid/schema.json" }, /can't resolve reference https:\/\/evil/],
    [{ type: 5 }, /schema is invalid/],
    [{ type: "object", properties: { a: { $ref: "#/nope" } } }, /can't resolve reference/],
    [
      { type: "object", description: "x".repeat(MAX_SCHEMA_CHARS) },
      /inputSchema is \d+ characters, over the 200000 hel checks/,
    ],
  ];
  for (const [value, reason] of cases) {
    const check = await compileSchemaCheck(value);
    assert.equal(typeof check, "object");
    assert.match((check as { error: string }).error, reason);
  }
  // Deep enough to overflow the compiler's stack, small enough to be compiled.
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 9_000; i++) deep = { properties: { a: deep } };
  const check = await compileSchemaCheck(deep);
  if (typeof check === "object") assert.match(check.error, /cannot be checked/);
});

test("recursive schemas and shared $ids compile; deep arguments are refused, not thrown", async () => {
  const tree = { $id: "tree", type: "object", properties: { child: { $ref: "#" } } };
  const check = await compiled(tree);
  await compiled({ ...tree });
  assert.deepEqual(problems(check, { child: { child: {} } }), []);
  assert.deepEqual(problems(check, { child: { child: 3 } }), [
    "child.child must be an object, not integer",
  ]);
  let args: Record<string, unknown> = {};
  for (let i = 0; i < 100_000; i++) args = { child: args };
  const result = check(args);
  assert.equal(result.ok, false);
});

test("a definition referenced many times is compiled once, not copied into every reference", async () => {
  // A hostile server's 15 KB schema: one 200-property definition behind 200 references. Copied
  // into each, ajv made some 40 MB of code (7 s, 1 GB; at 30 KB a minute and 4 GB) when the tool
  // was loaded, holding hel's whole loop.
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) properties[`p${i}`] = { type: "string", minLength: 1 };
  const refs: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) refs[`r${i}`] = { $ref: "#/definitions/d" };
  const schema = {
    type: "object",
    definitions: { d: { type: "object", properties } },
    properties: refs,
  };
  const validate = (await schemaValidator(schema)).compile(schema);
  const code = String(validate) +
    Object.values(validate.schemaEnv?.refs ?? {}).map(String).join("");
  assert.ok(code.length < 50 * JSON.stringify(schema).length, `${code.length} characters of code`);
  const check = await compileSchemaCheck(schema);
  assert.equal(typeof check, "function");
  const result = (check as SchemaCheck)({ r3: { p1: "" } });
  assert.equal(result.ok, false);
});
