/**
 * `hel mcp list --json`: what `hel mcp list` shows, as one JSON object for scripts — each
 * configuration file and its state, each server with its status (and why it is not connected),
 * where it comes from, how it runs, and its tools under both names (the model-facing one and
 * the server's own, and why a name is hashed), their annotations and whether they count, the
 * ones excluded and why. Server text is kept whole but the JSON is ASCII
 * only (`\u` escapes), so no control, bidi or invisible character reaches a terminal raw.
 *
 * @module
 */
import type { ListingCut } from "./listing_budget.ts";
import type { Catalog } from "./catalog.ts";
import { callMaximumMs, type ServerConfig } from "./config.ts";
import { shownHeaders } from "./remote_config.ts";
import type { LoginState } from "./login_state.ts";
import type { OAuthSettings } from "./oauth_config.ts";
import { CONFIG_PATH, type McpConfigFile } from "./config_files.ts";
import type { Launcher } from "./launch.ts";
import type { ServerState } from "./servers.ts";
import type { ToolAnnotations } from "./tool_annotations.ts";
import type { Renamed } from "./tool_names.ts";

/** One configuration file. */
export interface FileJson {
  scope: "user" | "project";
  path: string;
  /** `trusted`/`untrusted` for a project file that lists servers; `ok` otherwise when usable. */
  status: "absent" | "unusable" | "invalid" | "ok" | "trusted" | "untrusted";
  sha256?: string;
  /** What is wrong with an invalid or unusable file. */
  problems?: string[];
}

/** One configured server. */
export interface ServerJson {
  name: string;
  scope: "user" | "project";
  file: string;
  status: "connected" | "skipped" | "untrusted";
  /** Why a server is not connected. */
  reason?: string;
  /** The program and its arguments; empty for a remote server. */
  command: string[];
  /**
   * A remote server's address, transport, headers (names and variables, never values), its
   * `"oauth"` settings and its login as the token store has it (login_state.ts).
   */
  remote?: {
    url: string;
    transport: "http" | "sse" | "auto";
    headers: string[];
    oauth?: OAuthSettings;
    login?: LoginState;
  };
  sandboxed: boolean;
  /** Variable names only, never values. */
  environment: { own: string[]; base: string[]; unset: string[] };
  callTimeoutSeconds: number;
  /** What progress reports can stretch a call to. */
  maxCallSeconds: number;
  /** The entry's `tools` allowlist, and how many listed tools it left out. */
  toolsFilter?: { entries: string[]; leftOut?: number; unmatched: string[] };
  /** How hel cut a tool listing over its budget (listing_budget.ts); absent when whole. */
  listingCut?: ListingCut;
  tools: ToolJson[];
  excluded: { serverName: string; reason: string }[];
}

/** One usable tool of a connected server. */
export interface ToolJson {
  /** The model-facing name. */
  name: string;
  /** The server's own name (what `tools/call` sends). */
  serverName: string;
  description: string;
  /** Why `name` is a hashed one (tool_names.ts): too long, shared once sanitised, or taken. */
  renamed?: Renamed;
  /** The tool's `title` and boolean hints, as the server listed them (untrusted). */
  annotations?: { title?: string } & ToolAnnotations["hints"];
  /** True when it counts as a read for access levels (its server's hints are trusted). */
  read: boolean;
}

/** What `--json` prints. */
export interface ListJson {
  /** False when a file or server does not work (the command exits 1). */
  ok: boolean;
  files: FileJson[];
  /** Names both files use (the project's entry runs). */
  clashes: string[];
  servers: ServerJson[];
}

/** A file's entry; `trusted` is known only for a project file that lists servers. */
export function fileJson(file: McpConfigFile, trusted?: boolean): FileJson {
  const base = { scope: file.scope, path: file.path };
  switch (file.kind) {
    case "absent":
      return { ...base, status: "absent" };
    case "unusable":
      return { ...base, status: "unusable", problems: [file.message] };
    case "invalid":
      return { ...base, status: "invalid", problems: file.problems };
    case "ok": {
      const status = trusted === undefined ? "ok" : trusted ? "trusted" : "untrusted";
      return { ...base, status, sha256: file.sha256 };
    }
  }
}

/** A server of an untrusted project file: configured, never started. */
export function untrustedServerJson(config: ServerConfig, launcher?: Launcher): ServerJson {
  return {
    ...configJson(config, launcher),
    status: "untrusted",
    reason: "the project's .hel/mcp.json is not trusted (hel trust mcp)",
  };
}

/** A server the command started (or tried to). */
export function serverJson(
  state: ServerState,
  config: ServerConfig,
  catalog: Catalog,
  launcher: Launcher,
  login?: LoginState,
): ServerJson {
  const base = configJson(config, launcher, login);
  if (state.status === "skipped") return { ...base, status: "skipped", reason: state.reason };
  return {
    ...base,
    status: "connected",
    ...(config.tools
      ? {
        toolsFilter: {
          entries: [...config.tools],
          leftOut: catalog.leftOut.get(config.name),
          unmatched: catalog.unmatched.filter((item) => item.server === config.name)
            .map((item) => item.entry),
        },
      }
      : {}),
    ...(state.cut ? { listingCut: state.cut } : {}),
    tools: catalog.entries.filter((entry) => entry.server === config.name).map((entry) => ({
      name: entry.fullName,
      serverName: entry.toolName,
      description: entry.description,
      ...(entry.renamed ? { renamed: entry.renamed } : {}),
      ...(entry.annotations
        ? { annotations: { ...titleOf(entry.annotations), ...entry.annotations.hints } }
        : {}),
      read: entry.readOnly === true,
    })),
    excluded: catalog.excluded.filter((item) => item.server === config.name)
      .map((item) => ({ serverName: item.toolName, reason: item.reason })),
  };
}

function titleOf(annotations: ToolAnnotations): { title?: string } {
  return annotations.title === undefined ? {} : { title: annotations.title };
}

function configJson(config: ServerConfig, launcher?: Launcher, login?: LoginState) {
  const variables = launcher?.variableNames(config) ?? { names: [], unset: [] };
  const own = variables.names.filter((name) => name in config.env);
  return {
    name: config.name,
    scope: config.file === CONFIG_PATH ? "project" as const : "user" as const,
    file: config.file,
    command: config.remote ? [] : [config.command, ...config.args],
    ...(config.remote
      ? {
        remote: {
          url: config.remote.url,
          transport: config.remote.transport ?? "auto" as const,
          headers: shownHeaders(config.remote),
          ...(config.remote.oauth ? { oauth: config.remote.oauth } : {}),
          ...(login ? { login } : {}),
        },
      }
      : {}),
    sandboxed: launcher?.sandboxed(config) ?? (config.sandbox && !config.remote),
    environment: {
      own: launcher ? own : Object.keys(config.env).sort(),
      base: variables.names.filter((name) => !own.includes(name)),
      unset: variables.unset,
    },
    callTimeoutSeconds: config.callTimeoutMs / 1000,
    maxCallSeconds: callMaximumMs(config.callTimeoutMs) / 1000,
    tools: [],
    excluded: [],
  };
}

/** JSON in ASCII: everything past `~` as a `\u` escape, so a terminal shows it as text. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
