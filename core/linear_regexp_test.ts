import assert from "node:assert/strict";
import { test } from "node:test";
import { loadLinearRegExp } from "./linear_regexp.ts";

const linearRegExp = await loadLinearRegExp();
import { compileSchemaCheck } from "./schema_check.ts";

/** A pattern JavaScript's engine takes exponential time to refuse `a…a!` with. */
const BACKTRACKING = "^(a+)+$";
/** 26 characters take JavaScript's engine seconds (each one more doubles it), RE2 microseconds. */
const REFUSED = "a".repeat(26) + "!";

test("a server's backtracking pattern is matched in linear time in an input schema", async () => {
  const check = await compileSchemaCheck({
    type: "object",
    properties: { code: { type: "string", pattern: BACKTRACKING } },
  });
  assert.ok(typeof check === "function");
  const started = performance.now();
  const result = check({ code: REFUSED });
  const ms = performance.now() - started;
  assert.deepEqual(result, { ok: false, problems: ['code must match pattern "^(a+)+$"'] });
  assert.ok(ms < 1_000, `the check took ${ms.toFixed(0)} ms`);
  assert.deepEqual(check({ code: "aaa" }), { ok: true, args: { code: "aaa" } });
});

test("patterns read as JavaScript's: \\u escapes, anywhere in the text, each its own", () => {
  assert.equal(linearRegExp("^[\\u0041-\\u005a]+$", "u").test("HEL"), true);
  assert.equal(linearRegExp("^[\\u0041-\\u005a]+$", "u").test("hel"), false);
  assert.equal(linearRegExp("^\\u{1F600}$", "u").test("😀"), true);
  assert.equal(linearRegExp("\\\\u0041", "u").test("\\u0041"), true);
  assert.equal(linearRegExp("b", "u").test("abc"), true);
  assert.notEqual(String(linearRegExp("a", "u")), String(linearRegExp("b", "u")));
});

test("a pattern RE2 cannot match in bounded time (lookaround, back-references) is not checked", async () => {
  assert.equal(linearRegExp("^(?=(a+)+$)", "u").test(REFUSED), true);
  const check = await compileSchemaCheck({
    type: "object",
    properties: {
      a: { type: "string", pattern: "^(\\w+)\\1$" },
      b: { type: "string", pattern: "^b" },
    },
  });
  assert.ok(typeof check === "function");
  assert.deepEqual(check({ a: "xy", b: "c" }), {
    ok: false,
    problems: ['b must match pattern "^b"'],
  });
});
