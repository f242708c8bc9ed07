/**
 * Search quality without a model (issue 17): `search_mcp_tools`' index over the tool listings
 * of real npm MCP servers (fixtures/mcp/catalogue/), asked tasks as people state them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { measureRecall } from "../../fixtures/mcp/catalogue/recall.ts";

Deno.test("real tool listings: the expected tool is in the top 5 for at least 90% of queries", async () => {
  const recall = await measureRecall();
  assert.ok(recall.tools >= 200, `the fixture has ${recall.tools} tools`);
  assert.ok(recall.queries >= 50, `the fixture has ${recall.queries} queries`);
  assert.ok(
    recall.at5 >= 0.9,
    `recall@5 is ${recall.at5}; missed:\n${JSON.stringify(recall.misses, null, 2)}`,
  );
});
