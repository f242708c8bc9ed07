import assert from "node:assert/strict";
import { outputCheck } from "./output_schema.ts";

Deno.test("a server's backtracking outputSchema pattern and its own answer cannot hold hel up", async () => {
  const check = outputCheck({
    name: "t",
    outputSchema: {
      type: "object",
      properties: { s: { type: "string", pattern: "^(a+)+$" } },
      patternProperties: { "^(b+)+$": { type: "number" } },
    },
  })!;
  const started = performance.now();
  const problems = await check({ s: "a".repeat(26) + "!", ["b".repeat(26) + "!"]: "x" });
  const ms = performance.now() - started;
  assert.deepEqual(problems, ['s must match pattern "^(a+)+$"']);
  assert.ok(ms < 1_000, `the check took ${ms.toFixed(0)} ms`);
  assert.equal(await check({ s: "aaa", bb: 1 }), undefined);
  assert.deepEqual(await check({ s: "aaa", bb: "x" }), ['bb must be number (it is "x")']);
});
