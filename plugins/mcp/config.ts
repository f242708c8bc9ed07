/**
 * An MCP configuration file (`.hel/mcp.json`, `$HEL_HOME/mcp.json`): parsing (JSONC) and
 * validation, before anything is trusted or started.
 * A file with any mistake is rejected as a whole, with messages naming the file, line, column,
 * field and fix; unknown fields are mistakes, so a typo never silently changes what runs.
 *
 * @module
 */
import type { Node } from "jsonc-parser";
import { envReference } from "./server_env.ts";
import { readTools } from "./tool_filter.ts";
import { type LogLevel, readLogLevel } from "./log_level.ts";
import { DEFAULT_MAX_MESSAGE_BYTES, readMaxMessageBytes } from "./message_size.ts";
import { readOAuth } from "./oauth_config.ts";
import {
  readHeaders,
  readTransport,
  readUrl,
  readVariableName,
  REMOTE_FIELDS,
  type RemoteServer,
  STDIO_ONLY_FIELDS,
} from "./remote_config.ts";
import { namesAuthorization, sendsOwnAuthorization } from "./remote_headers.ts";
import {
  didYouMean,
  jsoncProperties,
  type JsoncProperty,
  parseJsoncConfig,
  VARIABLE_NAME,
} from "../../kit/mod.ts";

/** Seconds one tool call may take unless the server's `timeout` says otherwise. */
export const DEFAULT_CALL_TIMEOUT_SECONDS = 300;
/** The largest `timeout` accepted (one day), so a typo cannot make a call wait for ever. */
const MAX_CALL_TIMEOUT_SECONDS = 86_400;
/**
 * How many times its `timeout` a call may run while the server keeps reporting progress (each
 * report restarts the timeout); the MCP spec asks for such a hard maximum so a server that
 * reports progress for ever cannot hold a call for ever.
 */
export const PROGRESS_TIMEOUT_FACTOR = 10;

/**
 * The longest a call may run however much progress it reports, in milliseconds:
 * {@link PROGRESS_TIMEOUT_FACTOR} times the server's timeout, at most the longest `timeout`
 * accepted (so a one-day timeout gains nothing from progress).
 */
export function callMaximumMs(callTimeoutMs: number): number {
  const capped = Math.min(callTimeoutMs * PROGRESS_TIMEOUT_FACTOR, MAX_CALL_TIMEOUT_SECONDS * 1000);
  return Math.max(callTimeoutMs, capped);
}

/** One configured server: started by hel (stdio), or remote (`remote`, `command` empty). */
export interface ServerConfig {
  name: string;
  /** The file the entry is written in, as messages name it (`.hel/mcp.json`, or the person's). */
  file: string;
  /** A server reached over HTTP (remote_config.ts); hel starts nothing for it. */
  remote?: RemoteServer;
  command: string;
  args: string[];
  /**
   * The variables the server gets besides the base (server_env.ts), as written: a value
   * `${NAME}` (or `${NAME:-default}`) passes hel's variable NAME on.
   */
  env: Record<string, string>;
  /**
   * False for `"sandbox": false`: the server runs outside the sandbox, with hel's rights. The
   * trust review and `hel mcp list` say so.
   */
  sandbox: boolean;
  /** Per-call timeout in milliseconds. */
  callTimeoutMs: number;
  /** A message from the server over this many bytes is skipped, failing its call. */
  maxMessageBytes: number;
  /**
   * The allowlist of the server's own tool names (`*` matches any run of characters); absent
   * means every listed tool is offered. See tool_filter.ts.
   */
  tools?: string[];
  /** The least severe log level asked of the server; absent means "warning" (log_level.ts). */
  logLevel?: LogLevel;
  /**
   * `"trustAnnotations": true`: the server's `readOnlyHint: true` tools count as reads for access
   * levels (tool_annotations.ts). Absent or false: annotations are shown, never trusted.
   */
  trustAnnotations?: boolean;
}

/** The parse result: servers in name order, or every mistake found. */
export type McpConfigResult =
  | { ok: true; servers: ServerConfig[] }
  | { ok: false; problems: string[] };

/** Letters, digits, '-' and single '_' (never "__", which separates parts of tool names). */
const SERVER_NAME = /^[A-Za-z0-9_-]+$/;
const SERVER_FIELDS = [
  "command",
  "args",
  "env",
  "timeout",
  "tools",
  "sandbox",
  "logLevel",
  "trustAnnotations",
  "maxMessageBytes",
  ...REMOTE_FIELDS,
] as const;
/**
 * An `env` value that starts with a variable reference hel does not resolve (`$NAME`, or
 * `${NAME}` before more text): hel would hand the server the literal text, e.g. a token that
 * reads "$GITHUB_TOKEN". Only a whole `${NAME}` or `${NAME:-default}` passes a variable on.
 * (Arguments are not checked: with "command": "sh", "-c" a shell does expand them.)
 */
const VARIABLE_REFERENCE =
  /^\$(\{[A-Za-z_][A-Za-z0-9_]*(:?-[^}]*)?\}|[A-Za-z_][A-Za-z0-9_]*)(\/|$)/;

const EXAMPLE = '{"servers": {"notes": {"command": "notes-mcp", "args": ["--dir", "notes"]}}}';

/**
 * The pairs of an object, each name once. JSON keeps the last of a repeated name silently, so a
 * reviewer could read one `command` while another runs: a repeat is reported as a mistake.
 */
function uniqueProperties(
  node: Node,
  where: (name: string) => string,
  problem: (node: Node, message: string) => void,
): JsoncProperty[] {
  const seen = new Set<string>();
  return jsoncProperties(node).filter(({ name, key }) => {
    if (!seen.has(name)) return seen.add(name);
    problem(key, `${where(name)} is written twice; keep one`);
    return false;
  });
}

/** True for a usable server name. */
export function validServerName(name: string): boolean {
  // A '_' at either end would let two servers' tool names meet: `a_` with tool `b` and `a`
  // with tool `_b` both give `mcp__a___b`, and a rule for one server would cover the other.
  return SERVER_NAME.test(name) && !name.includes("__") && !/^_|_$/.test(name);
}

/**
 * Parses and validates the bytes of an MCP configuration; `path` is how messages name the file,
 * `project` says it is a project's (repository content: oauth_project_rule.ts applies).
 */
export function parseMcpConfig(bytes: Uint8Array, path: string, project = false): McpConfigResult {
  const parsed = parseJsoncConfig(bytes, path, {
    emptyFix: `write for example ${EXAMPLE}`,
    maxSyntaxErrors: 3,
  });
  if (!parsed.ok) return parsed;

  const { root, at } = parsed;
  const problems: string[] = [];
  const problem = (node: Node, message: string) => problems.push(`${at(node.offset)}: ${message}`);
  if (root.type !== "object") {
    problem(root, `the top level must be an object like ${EXAMPLE}`);
    return { ok: false, problems };
  }
  let serversNode: Node | undefined;
  for (const { name, key, value } of uniqueProperties(root, (n) => `"${n}"`, problem)) {
    if (name === "servers") serversNode = value;
    else {
      problem(
        key,
        `unknown field "${name}"${didYouMean(name, ["servers"])}; only "servers" is allowed here`,
      );
    }
  }
  if (!serversNode) {
    problem(root, `the "servers" field is missing; write for example ${EXAMPLE}`);
    return { ok: false, problems };
  }
  if (serversNode.type !== "object") {
    problem(serversNode, `"servers" must be an object of server name to server, e.g. ${EXAMPLE}`);
    return { ok: false, problems };
  }
  const servers: ServerConfig[] = [];
  const named = (n: string) => `servers.${JSON.stringify(n)}`;
  for (const { name, value: node } of uniqueProperties(serversNode, named, problem)) {
    const server = readServer(name, path, node, problem, project);
    if (server) servers.push(server);
  }
  if (problems.length > 0) return { ok: false, problems };
  servers.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return { ok: true, servers };
}

function readServer(
  name: string,
  file: string,
  node: Node,
  problem: (node: Node, message: string) => void,
  project: boolean,
): ServerConfig | undefined {
  const field = `servers.${JSON.stringify(name)}`;
  let bad = false;
  const report = (at: Node, message: string) => {
    bad = true;
    problem(at, message);
  };
  if (!validServerName(name)) {
    report(
      node,
      `invalid MCP server name ${JSON.stringify(name)}: use letters, digits, '-' and single '_' ` +
        `(no "__", no '_' first or last, no spaces or dots), e.g. "notes" or "issue-tracker"`,
    );
  }
  if (node.type !== "object") {
    report(
      node,
      `${field} must be an object with "command" (and optionally "args", "env", "timeout", ` +
        `"tools", "sandbox", "logLevel", "trustAnnotations", "maxMessageBytes") or with "url"`,
    );
    return undefined;
  }
  const server: ServerConfig = {
    name,
    file,
    command: "",
    args: [],
    env: {},
    callTimeoutMs: DEFAULT_CALL_TIMEOUT_SECONDS * 1000,
    maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES,
    sandbox: true,
  };
  let sawCommand = false;
  const fieldOf = (key: string) => `${field}.${key}`;
  const remote: Partial<RemoteServer> = {};
  const seen = new Map<string, Node>();
  for (const { name: key, key: keyNode, value } of uniqueProperties(node, fieldOf, report)) {
    const here = `${field}.${key}`;
    seen.set(key, keyNode);
    switch (key) {
      case "url":
        remote.url = readUrl(here, value, report);
        break;
      case "transport":
        remote.transport = readTransport(here, value, report);
        break;
      case "bearerTokenEnv":
        remote.bearerTokenEnv = readVariableName(here, value, report);
        break;
      case "headers":
        remote.headers = readHeaders(
          here,
          value,
          report,
          (object) => uniqueProperties(object, (n) => `${here}.${n}`, report),
        );
        break;
      case "oauth":
        remote.oauth = readOAuth(
          here,
          value,
          report,
          (object) => uniqueProperties(object, (n) => `${here}.${n}`, report),
          project,
        );
        break;
      case "command":
        sawCommand = true;
        if (value.type !== "string" || String(value.value).trim() === "") {
          report(value, `${here} must be a non-empty string naming the program, e.g. "python3"`);
        } else server.command = String(value.value);
        break;
      case "args":
        if (value.type !== "array" || !(value.children ?? []).every((c) => c.type === "string")) {
          report(
            value,
            `${here} must be a list of strings, one per argument, e.g. ["--dir", "notes"]`,
          );
        } else server.args = (value.children ?? []).map((c) => String(c.value));
        break;
      case "env":
        if (value.type !== "object") {
          report(value, `${here} must be an object of variable name to string value`);
          break;
        }
        for (
          const { name: variable, value: setting } of uniqueProperties(
            value,
            (variable) => `${here}.${variable}`,
            report,
          )
        ) {
          if (setting.type !== "string") {
            report(setting, `${here}.${variable} must be a string; quote the value, e.g. "1"`);
          } else if (!VARIABLE_NAME.test(variable)) {
            report(setting, `${here}: ${JSON.stringify(variable)} is not a valid variable name`);
          } else if (
            !envReference(String(setting.value)) && VARIABLE_REFERENCE.test(String(setting.value))
          ) {
            report(
              setting,
              `${here}.${variable} is ${JSON.stringify(setting.value)}, but hel expands only a ` +
                'whole value "${NAME}" (or "${NAME:-default}"), which passes hel\'s variable ' +
                "NAME on; write that, or the value itself",
            );
          } else server.env[variable] = String(setting.value);
        }
        break;
      case "timeout": {
        const seconds = value.value;
        if (
          value.type !== "number" || typeof seconds !== "number" || !(seconds > 0) ||
          seconds > MAX_CALL_TIMEOUT_SECONDS
        ) {
          report(
            value,
            `${here} must be a positive number of seconds (at most ${MAX_CALL_TIMEOUT_SECONDS}), ` +
              `e.g. 120; leave it out for the default of ${DEFAULT_CALL_TIMEOUT_SECONDS}`,
          );
        } else server.callTimeoutMs = Math.round(seconds * 1000);
        break;
      }
      case "sandbox":
        if (value.type !== "boolean") {
          report(
            value,
            `${here} must be true or false (no quotes); false runs the server outside the ` +
              "sandbox, with your rights; leave it out to keep the sandbox",
          );
        } else server.sandbox = value.value === true;
        break;
      case "trustAnnotations":
        if (value.type !== "boolean") {
          report(
            value,
            `${here} must be true or false (no quotes); true lets the server's tools marked ` +
              "readOnlyHint count as reads (run without a question, even read-only); leave it " +
              "out to keep its hints untrusted",
          );
        } else if (value.value === true) server.trustAnnotations = true;
        break;
      case "tools": {
        const tools = readTools(here, value, report);
        if (tools) server.tools = tools;
        break;
      }
      case "maxMessageBytes": {
        const bytes = readMaxMessageBytes(here, value, report);
        if (bytes !== undefined) server.maxMessageBytes = bytes;
        break;
      }
      case "logLevel": {
        const level = readLogLevel(here, value, report);
        if (level) server.logLevel = level;
        break;
      }
      default:
        report(
          keyNode,
          `unknown field ${here}${didYouMean(key, SERVER_FIELDS)}; allowed: ${
            SERVER_FIELDS.join(", ")
          }`,
        );
    }
  }
  if (seen.has("url")) {
    // A remote server is reached, not started: the fields that say how to start one are errors.
    for (const key of STDIO_ONLY_FIELDS) {
      const at = seen.get(key);
      if (at) {
        report(
          at,
          `${field} has both "url" and "${key}": a server with a "url" is reached over HTTP, ` +
            `not started by hel, so "${key}" has no meaning there; remove one of them`,
        );
      }
    }
    const headers = remote.headers ?? {};
    if (remote.bearerTokenEnv && namesAuthorization(headers)) {
      report(
        seen.get("bearerTokenEnv")!,
        `${field} sets Authorization twice ("bearerTokenEnv" and "headers"); keep one`,
      );
    }
    if (remote.oauth && sendsOwnAuthorization({ ...remote, headers })) {
      report(
        seen.get("oauth")!,
        `${field} has "oauth" and an Authorization header: a login's token is sent as ` +
          "Authorization, so keep one of them",
      );
    }
    if (remote.url) server.remote = { ...remote, url: remote.url, headers };
  } else {
    for (const key of REMOTE_FIELDS) {
      const at = seen.get(key);
      if (at && key !== "url") {
        report(at, `${field}.${key} is only for a server with a "url"; add the url or remove it`);
      }
    }
    if (!sawCommand) {
      report(
        node,
        `${field} needs a "command" (a program hel starts), e.g. "command": "python3", or a ` +
          `"url" (a remote server), e.g. "url": "https://mcp.example.com/mcp"`,
      );
    }
  }
  return bad ? undefined : server;
}
