import assert from "node:assert/strict";
import { test } from "node:test";
import { compileSchemaCheck, deferSchemaCheck, MAX_SCHEMA_CHARS } from "./schema_check.ts";

/** What each check says of `schema`: the error, or "ok" for one that gave a check. */
async function verdicts(schema: Record<string, unknown>): Promise<[string, string]> {
  const compiled = await compileSchemaCheck(schema);
  const deferred = await deferSchemaCheck(schema);
  return [
    typeof compiled === "function" ? "ok" : compiled.error,
    "error" in deferred ? deferred.error : "ok",
  ];
}

test("the cheap look refuses what the compile refuses, in the same words", async () => {
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 9_000; i++) deep = { properties: { a: deep } };
  const refused = [
    { type: "object", required: "path" },
    { type: "object", properties: { a: { type: "strnig" } } },
    { type: "object", $ref: "https://evil.invalid/s.json" },
    { type: "object", properties: { a: { $ref: "#/definitions/missing" } } },
    { type: "object", properties: { a: { $ref: "other.json#/x" } } },
    { type: "object", description: "x".repeat(MAX_SCHEMA_CHARS) },
    deep,
  ];
  for (const schema of refused) {
    const [compiled, deferred] = await verdicts(schema);
    assert.notEqual(compiled, "ok");
    assert.equal(deferred, compiled);
  }
});

test("the cheap look lets through what compiles", async () => {
  const accepted = [
    { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    {
      type: "object",
      definitions: { name: { type: "string" } },
      properties: { a: { $ref: "#/definitions/name" } },
    },
    {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: { n: { type: "number" } },
      properties: { n: { $ref: "#/$defs/n" }, e: { enum: [{ $ref: "not a reference" }] } },
    },
    { $id: "https://example.test/s", type: "object", $defs: { a: { $id: "a", type: "string" } } },
  ];
  for (const schema of accepted) assert.deepEqual(await verdicts(schema), ["ok", "ok"]);
});

test("a schema that fails only when compiled refuses every call, compiled once", async () => {
  const deferred = await deferSchemaCheck({
    type: "object",
    properties: { a: { $ref: "#nowhere" } },
  });
  assert.ok(!("error" in deferred));
  const reason = "its inputSchema cannot be checked: can't resolve reference #nowhere from id #";
  assert.equal(deferred.compile(), reason);
  assert.deepEqual(deferred.check({ a: 1 }), { ok: false, problems: [reason], unusable: true });
  assert.equal(deferred.compile(), reason);
});

test("a deferred check checks arguments like a compiled one", async () => {
  const deferred = await deferSchemaCheck({
    type: "object",
    properties: { q: { type: "string" } },
    required: ["q"],
  });
  assert.ok(!("error" in deferred));
  assert.deepEqual(deferred.check({ q: "x" }), { ok: true, args: { q: "x" } });
  assert.deepEqual(deferred.check({}), { ok: false, problems: ["q is required but missing"] });
  assert.equal(deferred.compile(), undefined);
});
