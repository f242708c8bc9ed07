/**
 * What a parsed MCP configuration runs, for the trust review: each server's program and
 * arguments, the file it comes from, the names of the variables it sets, and whether it runs
 * in the sandbox.
 *
 * @module
 */
import type { TrustSummary } from "../../core/mod.ts";
import type { ServerConfig } from "./config.ts";
import { shownEnvNames } from "./server_env.ts";

/**
 * The servers in the order hel starts them. `replaces` maps the name of a server the person's
 * own file also defines to that file: the project's entry would be used instead, and the
 * review says so, since it decides what runs under a name the person chose.
 */
export function summarizeServers(
  servers: readonly ServerConfig[],
  replaces: ReadonlyMap<string, string> = new Map(),
): TrustSummary {
  return {
    noun: { one: "MCP server", many: "MCP servers" },
    entries: servers.map((server) => {
      const replaced = replaces.get(server.name);
      return {
        label: `server ${JSON.stringify(server.name)}`,
        details: `from ${server.file}` +
          (replaced === undefined ? "" : `, replacing yours in ${replaced}`),
        command: server.command,
        args: server.args,
        // A reference shows where its value comes from (`LOG_LEVEL (from GITHUB_TOKEN)`).
        envNames: shownEnvNames(server.env),
        // False only for an entry with "sandbox": false (config.ts).
        sandbox: server.sandbox,
      };
    }),
  };
}
