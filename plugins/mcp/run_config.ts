/**
 * The servers one run starts: the person's `$HEL_HOME/mcp.json` as it is, the project's
 * `.hel/mcp.json` once its bytes are trusted (asked on a terminal), merged with the project's
 * entry winning a name clash. A file that cannot be used is warned about and leaves the other
 * file's servers running.
 *
 * @module
 */
import type { Host } from "../../core/mod.ts";
import { reviewTrust } from "../../kit/mod.ts";
import type { ServerConfig } from "./config.ts";
import {
  clashText,
  CONFIG_PATH,
  MCP_TRUST,
  type McpConfigFile,
  mergeServers,
  readMcpConfigs,
} from "./config_files.ts";
import type { Trace } from "./connection.ts";
import { summarizeServers } from "./summary.ts";
import { type LoginState, loginState } from "./login_state.ts";

/** What the run starts, and why a file added nothing (for the plugin's status lines). */
export interface RunServers {
  servers: ServerConfig[];
  notes: string[];
}

/** Reads both files, asks about the project's when needed, and warns about what is not used. */
export async function serversForRun(
  host: Host,
  trace: Trace,
  warn: (text: string) => void,
): Promise<RunServers> {
  const [user, project] = await readMcpConfigs(host.helHome, host.project);
  const notes: string[] = [];
  if (user.kind === "absent" && project.kind === "absent") {
    notes.push(`no MCP servers: neither ${user.path} nor ${CONFIG_PATH} exists`);
    return { servers: [], notes };
  }
  const userServers = usable(user, trace, warn, notes);
  let projectServers = usable(project, trace, warn, notes);
  if (project.kind === "ok" && projectServers.length > 0) {
    const mine = new Set(userServers.map((server) => server.name));
    // From the token store (no network): the review says which entries would get your login.
    const logins = new Map<string, LoginState>();
    for (const server of project.servers) {
      const state = await loginState(host.helHome, server);
      if (state) logins.set(server.name, state);
    }
    const summary = summarizeServers(project.servers, mine, logins);
    const trust = await reviewTrust(host, MCP_TRUST, CONFIG_PATH, project.bytes, summary);
    trace({
      event: "config",
      scope: "project",
      file: project.path,
      status: trust,
      sha256: project.sha256,
      servers: project.servers.length,
    });
    if (trust !== "trusted") {
      projectServers = [];
      notes.push(
        `no server of ${CONFIG_PATH} was started: it is not trusted (review it with ` +
          `"hel trust mcp")`,
      );
    }
    if (trust === "refused") {
      warn(
        `you did not trust ${CONFIG_PATH}, so no MCP server was started from it; hel asks ` +
          `again on the next run, or review it now with "hel trust mcp"`,
      );
    } else if (trust === "no-terminal") {
      warn(
        `${CONFIG_PATH} is not trusted for this project and there is no terminal to ask, so ` +
          `no MCP server was started from it. Review it with "hel trust mcp" on a terminal, or ` +
          `pin these exact bytes with "hel trust mcp --sha256 ${project.sha256}"`,
      );
    }
  }
  if (user.kind === "ok") {
    // The person's own file needs no trust question: it counts as trusted (evals/raw_log.ts).
    trace({
      event: "config",
      scope: "user",
      file: user.path,
      status: "trusted",
      servers: user.servers.length,
    });
  }
  const merged = mergeServers(userServers, projectServers);
  for (const clash of merged.clashes) warn(clashText(clash));
  return { servers: merged.servers, notes };
}

/** A file's servers when it can be used as it is; else a warning and a status note. */
function usable(
  file: McpConfigFile,
  trace: Trace,
  warn: (text: string) => void,
  notes: string[],
): ServerConfig[] {
  switch (file.kind) {
    case "absent":
      return [];
    case "unusable":
      trace({
        event: "config",
        scope: file.scope,
        file: file.path,
        status: "unusable",
        message: file.message,
      });
      warn(`${file.message}; no MCP server was started from it`);
      notes.push(`no server of ${file.path} was started: ${file.message}`);
      return [];
    case "invalid":
      trace({
        event: "config",
        scope: file.scope,
        file: file.path,
        status: "invalid",
        problems: file.problems,
      });
      warn(
        `${file.path} is invalid, so no MCP server was started from it:\n  ${
          file.problems.join("\n  ")
        }`,
      );
      notes.push(`no server of ${file.path} was started: it is invalid`);
      return [];
    case "ok":
      if (file.servers.length === 0) notes.push(`no MCP servers in ${file.path}: it lists none`);
      return file.servers;
  }
}
