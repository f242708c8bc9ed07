/**
 * What a parsed MCP configuration runs, for the trust review: each server's program and
 * arguments, the file it comes from, the names of the variables it sets, whether it runs in the
 * sandbox, and whether its tools' read-only hints are trusted.
 *
 * @module
 */
import type { TrustSummary } from "../../core/mod.ts";
import type { ServerConfig } from "./config.ts";
import { shownEnvNames } from "./server_env.ts";
import { shownHeaders } from "./remote_config.ts";
import { type LoginState, reviewLoginText } from "./login_state.ts";
import { shownOAuth } from "./oauth_shown.ts";

/**
 * The servers in the order hel starts them. `replaces` holds the names the person's own file
 * also defines: the project's entry would run instead, and the review says so, since it decides
 * what runs under a name the person chose. `logins` holds the remote servers' login states
 * (login_state.ts), when known: a project entry at an address you logged in to gets your token,
 * and the review says so. (Short words: the review's lines have 80 columns.)
 */
export function summarizeServers(
  servers: readonly ServerConfig[],
  replaces: ReadonlySet<string> = new Set(),
  logins: ReadonlyMap<string, LoginState> = new Map(),
): TrustSummary {
  return {
    noun: { one: "MCP server", many: "MCP servers" },
    entries: servers.map((server) => {
      const from = `from ${server.file}` + (replaces.has(server.name) ? ", replacing yours" : "") +
        (server.trustAnnotations ? ", trusts its read-only hints" : "");
      if (server.remote) {
        // Nothing is started: the review shows where hel connects and which of your variables
        // it sends there (header names and variable names, never values).
        const headers = shownHeaders(server.remote);
        const oauth = shownOAuth(server.remote.oauth);
        const login = logins.get(server.name);
        const stored = login && reviewLoginText(login);
        return {
          label: `server ${JSON.stringify(server.name)}`,
          details: `${from}, remote (${server.remote.transport ?? "http, else sse"})`,
          command: [
            server.remote.url,
            headers.length > 0 ? `sends: ${headers.join(", ")}` : "no headers",
            ...(oauth ? [oauth] : []),
            ...(stored ? [stored] : []),
          ].join(" · "),
          envNames: [],
          sandbox: true, // not "outside the sandbox": hel runs no program for it
          program: false,
          commandLabel: "connect",
        };
      }
      return {
        label: `server ${JSON.stringify(server.name)}`,
        // Trusting annotations widens what runs without a question: the review says so.
        details: from,
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
