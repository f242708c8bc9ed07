import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { MAX_KEPT_CHARS, MAX_KEPT_TOOLS } from "./listing_budget.ts";
import { listToolsAtStart } from "./start_listing.ts";

/** A client answering tools/list with `pages` in turn; `asked` counts the requests. */
function pagedClient(pages: { tools: unknown[]; nextCursor?: string }[]) {
  const state = { asked: 0 };
  const client = {
    request: () => Promise.resolve(pages[state.asked++]),
  } as unknown as Client;
  return { client, state };
}

Deno.test("a tools/list page of 200,000 tools is taken a tool at a time, up to the budget, and no further page is asked for", async () => {
  const tool = { name: "t", inputSchema: { type: "object" } };
  const { client, state } = pagedClient([
    { tools: Array.from({ length: 200_000 }, () => tool), nextCursor: "2" },
    { tools: [tool] },
  ]);
  const { tools, cut } = await listToolsAtStart("s", client, 1_000);
  assert.equal(tools.length, MAX_KEPT_TOOLS);
  assert.equal(state.asked, 1);
  assert.deepEqual(cut, {
    kept: MAX_KEPT_TOOLS,
    keptChars: MAX_KEPT_TOOLS * JSON.stringify(tool).length,
    leftOut: 200_000 - MAX_KEPT_TOOLS,
    morePages: true,
    bound: "tools",
  });
});

Deno.test("tools whose definitions pass the character budget are left out, and the listing stops there", async () => {
  // One shared 1 Mi-character description: 64 tools of it pass 64 Mi characters.
  const description = "d".repeat(1024 * 1024);
  const page = (from: number) => ({
    tools: Array.from({ length: 10 }, (_, i) => ({
      name: `t${from + i}`,
      description,
      inputSchema: { type: "object" },
    })),
    nextCursor: String(from + 10),
  });
  const { client, state } = pagedClient(Array.from({ length: 10 }, (_, i) => page(i * 10)));
  const { tools, cut } = await listToolsAtStart("s", client, 1_000);
  assert.ok(cut);
  assert.equal(cut.bound, "characters");
  assert.ok(cut.keptChars <= MAX_KEPT_CHARS);
  assert.equal(tools.length, 63);
  assert.equal(cut.leftOut, 7); // the rest of the seventh page
  assert.equal(state.asked, 7);
});

Deno.test("10,000 tools over several pages are kept whole, with no cut", async () => {
  const page = (from: number, last: boolean) => ({
    tools: Array.from({ length: 2_500 }, (_, i) => ({
      name: `t${from + i}`,
      description: "A tool of the bench's size, with a sentence or two of description.",
      inputSchema: { type: "object", properties: { q: { type: "string" } } },
    })),
    ...(last ? {} : { nextCursor: String(from + 2_500) }),
  });
  const { client } = pagedClient([0, 1, 2, 3].map((i) => page(i * 2_500, i === 3)));
  const { tools, cut } = await listToolsAtStart("s", client, 1_000);
  assert.equal(tools.length, 10_000);
  assert.equal(cut, undefined);
});

Deno.test("exactly the budget's tools with no further page is no cut", async () => {
  const tool = { name: "t", inputSchema: { type: "object" } };
  const { client } = pagedClient([{ tools: Array.from({ length: MAX_KEPT_TOOLS }, () => tool) }]);
  const { tools, cut } = await listToolsAtStart("s", client, 1_000);
  assert.equal(tools.length, MAX_KEPT_TOOLS);
  assert.equal(cut, undefined);
});

Deno.test("cursors count against the character budget: megabyte cursors cannot pile up", async () => {
  const tool = { name: "t", inputSchema: { type: "object" } };
  const cursor = (i: number) => `${i}`.padEnd(16 * 1024 * 1024, "c");
  const { client, state } = pagedClient(
    Array.from({ length: 10 }, (_, i) => ({ tools: [tool], nextCursor: cursor(i) })),
  );
  const { tools, cut } = await listToolsAtStart("s", client, 1_000);
  assert.ok(cut);
  assert.equal(cut.bound, "characters");
  assert.equal(cut.morePages, true);
  assert.equal(state.asked, 4); // the fourth cursor passes 64 Mi characters
  assert.equal(tools.length, 4);
});

Deno.test("a start's tools/list refused with an MCP error throws that error, for the skip reason to quote", async () => {
  const refusal = new McpError(ErrorCode.InternalError, "the registry is being rebuilt");
  const client = {
    request: () => Promise.reject(refusal),
    getServerCapabilities: () => ({ tools: {} }),
  } as unknown as Client;
  await assert.rejects(listToolsAtStart("s", client, 1_000), (error) => error === refusal);
});
