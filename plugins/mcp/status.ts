/**
 * The MCP plugin's status lines (`/status` and `/mcp` in the chat): one line per configured
 * server saying whether it is connected and how many of its tools are offered and loaded, or
 * why no server runs at all. Server names and reasons are outside text; the chat neutralises
 * the lines before showing them.
 *
 * @module
 */
import type { CatalogEntry } from "./catalog.ts";

/** A server as the status sees it: connected now, dropped since, or never started. */
export type ServerStatus =
  | {
    name: string;
    status: "connected";
    connected: () => boolean;
    /** Restarts during the run (restarts.ts); none when absent. */
    restarts?: () => { count: number; gaveUp: boolean };
  }
  | { name: string; status: "skipped"; reason: string };

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

/**
 * One line per configured server: `fs: connected, 3 tools (1 loaded)`,
 * `fs: disconnected …` for a server that went away during the run, `fs: skipped: <why>`.
 */
export function serverStatusLines(
  servers: readonly ServerStatus[],
  entries: readonly CatalogEntry[],
  loaded: ReadonlySet<string>,
): string[] {
  return servers.map((server) => {
    if (server.status === "skipped") return `${server.name}: skipped: ${server.reason}`;
    const tools = entries.filter((entry) => entry.server === server.name);
    const inUse = tools.filter((entry) => loaded.has(entry.fullName)).length;
    const offered = `${count(tools.length, "tool")} (${inUse} loaded)`;
    const restarts = server.restarts?.() ?? { count: 0, gaveUp: false };
    const restarted = restarts.count > 0 ? `, restarted ${count(restarts.count, "time")}` : "";
    if (server.connected()) return `${server.name}: connected, ${offered}${restarted}`;
    return restarts.gaveUp
      ? `${server.name}: given up after ${count(restarts.count, "restart")} (it kept going ` +
        `away); its ${offered} fail until hel starts again`
      : `${server.name}: disconnected (it exited or closed the connection)${restarted}; its ` +
        `${offered} start it again when one is called`;
  });
}
