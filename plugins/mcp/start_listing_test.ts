import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { listToolsAtStart } from "./start_listing.ts";

Deno.test("a tools/list page of 200,000 tools is taken whole (no spread into a call's arguments)", async () => {
  const tool = { name: "t", inputSchema: { type: "object" } };
  const pages = [
    { tools: Array.from({ length: 200_000 }, () => tool), nextCursor: "2" },
    { tools: [tool] },
  ];
  const client = { request: () => Promise.resolve(pages.shift()) } as unknown as Client;
  const tools = await listToolsAtStart(client, () => 1_000);
  assert.equal(tools.length, 200_001);
});
