/**
 * The `tools/list` a server's start (and each restart) ends with: every page, under the start's
 * deadline, with endless and cursor-repeating listings stopped, what is kept bounded
 * (listing_budget.ts), and a server made for resources or prompts only told apart from a broken
 * one.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, McpError, ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { KeptTools, type ToolListing } from "./listing_budget.ts";
import { StartupError } from "./startup_failure.ts";
import { MAX_LIST_PAGES } from "./server_requests.ts";

/**
 * Every page of the server's tools, until the budget of listing_budget.ts is spent (the cut is
 * then returned beside the tools); `timeout` gives the SDK timer of each request.
 */
export async function listToolsAtStart(
  client: Client,
  timeout: () => number,
): Promise<ToolListing> {
  const kept = new KeptTools();
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const result = await client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      ResultSchema,
      { timeout: timeout() },
    ).catch((error) => {
      throw withoutTools(client, error) ?? error;
    });
    if (!Array.isArray(result.tools)) {
      throw new StartupError('answered tools/list without a "tools" list');
    }
    // Entries that are not tool objects are the catalog's to report, not to drop here.
    // One at a time: spreading a page of some 150,000 tools overflows the stack. Only the kept
    // tools outlive this page: the next one is asked for after it is dropped.
    for (const tool of result.tools) kept.take(tool);
    const next = result.nextCursor;
    if (typeof next !== "string" || kept.full) return kept.finish(typeof next === "string");
    if (seen.has(next)) throw new StartupError("repeated a tools/list cursor (endless listing)");
    kept.charge(next.length);
    if (kept.full) return kept.finish(true);
    seen.add(next);
    cursor = next;
  }
  throw new StartupError(`listed more than ${MAX_LIST_PAGES} pages of tools`);
}

/**
 * A server that declares no tools and has no tools/list (one made for resources or prompts)
 * is not broken; it just has nothing hel can use. Servers that list tools without
 * declaring them are still listed, so this only explains the refusal.
 */
function withoutTools(client: Client, error: unknown): StartupError | undefined {
  const capabilities = client.getServerCapabilities() ?? {};
  if (!(error instanceof McpError) || error.code !== ErrorCode.MethodNotFound) return undefined;
  if (capabilities.tools !== undefined) return undefined;
  const offered = Object.keys(capabilities).filter((name) => name !== "experimental");
  return new StartupError(
    `offers no tools (it declares ${offered.length > 0 ? offered.join(", ") : "no features"})` +
      "; hel uses only MCP tools, so there is nothing to connect. Remove it from " +
      ".hel/mcp.json if it is not meant to be used here",
  );
}
