/**
 * Where MCP servers are configured, and how the two files combine: the person's own
 * `$HEL_HOME/mcp.json` (scope `user`: they wrote it, so it is used without a trust question) and
 * the project's `.hel/mcp.json` (scope `project`: repository content, used only once its bytes
 * are trusted). Both are read and validated the same way (config.ts); on a name clash the
 * project's entry wins.
 *
 * @module
 */
import type { TrustedConfig } from "../../core/mod.ts";
import {
  projectIsHelHome,
  readProjectConfig,
  readUserConfig,
  sha256Hex,
  userConfigPath,
} from "../../kit/mod.ts";
import { parseMcpConfig, type ServerConfig } from "./config.ts";

/** Which file a server comes from. */
export type Scope = "user" | "project";

/** The scopes, in the order `hel mcp` shows them. */
export const SCOPES: readonly Scope[] = ["user", "project"];

/** How messages name the project's configuration file. */
export const CONFIG_PATH = ".hel/mcp.json";

/** `.hel/mcp.json` starts servers only once trusted: `hel trust mcp`, or the review at start. */
export const MCP_TRUST: TrustedConfig = { kind: "mcp", subject: "MCP configuration" };

/** The person's own file, `$HEL_HOME/mcp.json`, as an absolute path (how messages name it). */
export function userMcpConfigPath(helHome: string): string {
  return userConfigPath(helHome, "mcp.json");
}

/** What reading one MCP configuration file found; `path` is how messages name the file. */
export type McpConfigFile =
  & { scope: Scope; path: string }
  & (
    | { kind: "absent" }
    | { kind: "unusable"; message: string }
    | { kind: "invalid"; problems: string[] }
    | { kind: "ok"; servers: ServerConfig[]; bytes: Uint8Array; sha256: string }
  );

/** Reads and validates the project's MCP configuration, before anything is trusted. */
export async function readProjectMcpConfig(project: string): Promise<McpConfigFile> {
  const where = { scope: "project", path: CONFIG_PATH } as const;
  const file = await readProjectConfig(project, "mcp.json");
  if (file.kind === "absent") return { ...where, kind: "absent" };
  if (file.kind === "unusable") return { ...where, kind: "unusable", message: file.message };
  return await validated(where, file.bytes);
}

/**
 * Reads and validates `$HEL_HOME/mcp.json`. The person's own folder, so a link to their
 * dotfiles is followed; the file must still be a regular file of at most 1 MiB.
 */
export async function readUserMcpConfig(helHome: string): Promise<McpConfigFile> {
  const file = await readUserConfig(helHome, "mcp.json");
  const where = { scope: "user", path: file.path } as const;
  switch (file.kind) {
    case "absent":
      return { ...where, kind: "absent" };
    case "not-file":
      return {
        ...where,
        kind: "unusable",
        message: `${file.path} is not a regular file; it was ignored`,
      };
    case "too-large":
      return {
        ...where,
        kind: "unusable",
        message: `${file.path} is larger than 1 MiB; it was ignored`,
      };
    case "unreadable":
      return { ...where, kind: "unusable", message: file.message };
    case "ok":
      return await validated(where, file.bytes);
  }
}

/**
 * Both files: the person's first, then the project's. In the folder that holds `$HEL_HOME`
 * (hel started in `~`, with the default `~/.hel`) the two are one file, the person's own.
 */
export async function readMcpConfigs(
  helHome: string,
  project: string,
): Promise<[McpConfigFile, McpConfigFile]> {
  const user = await readUserMcpConfig(helHome);
  if (await projectIsHelHome(helHome, project)) {
    return [user, { scope: "project", path: CONFIG_PATH, kind: "absent" }];
  }
  return [user, await readProjectMcpConfig(project)];
}

async function validated(
  where: { scope: Scope; path: string },
  bytes: Uint8Array,
): Promise<McpConfigFile> {
  const parsed = parseMcpConfig(bytes, where.path, where.scope === "project");
  if (!parsed.ok) return { ...where, kind: "invalid", problems: parsed.problems };
  return { ...where, kind: "ok", servers: parsed.servers, bytes, sha256: await sha256Hex(bytes) };
}

/** A server both files define: the project's entry is used. */
export interface Clash {
  name: string;
  /** The person's file, whose entry is not used. */
  user: string;
  /** The project's file, whose entry is used. */
  project: string;
}

/** The servers of a run, in name order, with the names both files define. */
export interface MergedServers {
  servers: ServerConfig[];
  clashes: Clash[];
}

/** The person's servers and the project's (each already usable), the project's winning. */
export function mergeServers(
  user: readonly ServerConfig[],
  project: readonly ServerConfig[],
): MergedServers {
  const byName = new Map(user.map((server) => [server.name, server]));
  const clashes: Clash[] = [];
  for (const server of project) {
    const mine = byName.get(server.name);
    if (mine) clashes.push({ name: server.name, user: mine.file, project: server.file });
    byName.set(server.name, server);
  }
  const servers = [...byName.values()].sort((a, b) => a.name < b.name ? -1 : 1);
  return { servers, clashes };
}

/** The one warning about a clash, naming both files. */
export function clashText(clash: Clash): string {
  return `MCP server ${clash.name} is configured in both ${clash.user} and ${clash.project}; ` +
    `the project's entry is used (remove one, or rename it, to silence this)`;
}
