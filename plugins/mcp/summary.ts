/**
 * What a parsed `.hel/mcp.json` runs, for the trust review: each server's program and
 * arguments, the names of the variables it sets, and whether it runs in the sandbox.
 *
 * @module
 */
import type { TrustSummary } from "../../core/mod.ts";
import type { ServerConfig } from "./config.ts";
import { shownEnvNames } from "./server_env.ts";

/** The servers in the order hel starts them. */
export function summarizeServers(servers: readonly ServerConfig[]): TrustSummary {
  return {
    noun: { one: "MCP server", many: "MCP servers" },
    entries: servers.map((server) => ({
      label: `server ${JSON.stringify(server.name)}`,
      command: server.command,
      args: server.args,
      // A reference shows where its value comes from (`LOG_LEVEL (from GITHUB_TOKEN)`).
      envNames: shownEnvNames(server.env),
      // False only for an entry with "sandbox": false (config.ts).
      sandbox: server.sandbox,
    })),
  };
}
