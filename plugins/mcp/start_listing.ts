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
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { KeptTools, type ToolListing } from "./listing_budget.ts";
import { StartupError } from "./startup_failure.ts";
import { listAll, ListingError } from "./server_requests.ts";

/**
 * Every page of `server`'s tools (server_requests.ts `listAll`), until the budget of
 * listing_budget.ts is spent (the cut is then returned beside the tools), within `timeoutMs`.
 * A failure is thrown for startup_failure.ts to word: the request's own error when there is one.
 */
export async function listToolsAtStart(
  server: string,
  client: Client,
  timeoutMs: number,
): Promise<ToolListing> {
  // The connection is not "connected" until this listing is done; it is alive while it lasts.
  const handle = { name: server, client, connected: () => true };
  const answer = await listAll(handle, "tools/list", "tools", timeoutMs, new KeptTools());
  if (answer.ok) return answer.value;
  const { error } = answer;
  if (error instanceof ListingError) throw new StartupError(error.message);
  throw withoutTools(client, error) ?? error ?? new StartupError(answer.text);
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
