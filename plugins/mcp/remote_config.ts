/**
 * The fields of a remote MCP server's entry (`"url"` instead of `"command"`): the address
 * (http or https only), the transport (Streamable HTTP with a fallback to the old HTTP+SSE one,
 * or either forced) and the headers sent with every request. A header's value comes from the
 * person's environment by explicit name (`{"env": "NAME"}`, `"bearerTokenEnv": "NAME"`); a
 * literal string is allowed only for a header whose name does not look like a credential, so a
 * token is never written into a file that is shared with the repository. No value is ever
 * built by interpolation (`"Bearer ${TOKEN}"` is refused with the way to write it).
 *
 * @module
 */
import type { Node } from "jsonc-parser";
import { looksSecret, VARIABLE_NAME } from "../../kit/mod.ts";
import type { OAuthSettings } from "./oauth_config.ts";

/** How hel reaches a remote server. */
export type RemoteTransportKind = "http" | "sse";

/** Where a header's value comes from. */
export type HeaderSource = { env: string } | { value: string };

/** A remote server's entry, as validated. */
export interface RemoteServer {
  url: string;
  /** Absent: Streamable HTTP, falling back to HTTP+SSE when the server answers the old way. */
  transport?: RemoteTransportKind;
  /** Sent with every request, by header name. */
  headers: Record<string, HeaderSource>;
  /** `Authorization: Bearer <value of this variable>`. */
  bearerTokenEnv?: string;
  /** How to log in (`hel mcp login`): a pre-registered client, scopes, the redirect port. */
  oauth?: OAuthSettings;
}

/** The fields only a remote entry has. */
export const REMOTE_FIELDS = ["url", "transport", "headers", "bearerTokenEnv", "oauth"] as const;
/** The fields only a started (stdio) entry has. */
export const STDIO_ONLY_FIELDS = ["command", "args", "env", "sandbox"] as const;

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the transport itself sets; one from the file would break the protocol. */
const RESERVED = new Set([
  "accept",
  "connection",
  "content-length",
  "content-type",
  "host",
  "last-event-id",
  "mcp-protocol-version",
  "mcp-session-id",
  "transfer-encoding",
]);
/** Header names that carry credentials however they are spelled. */
const SECRET_HEADER = /auth|token|secret|passw|key|cookie|session|credential|signature/i;

/** True for a header whose value must come from the environment, never the file. */
export function secretHeader(name: string): boolean {
  return SECRET_HEADER.test(name) || looksSecret(name.replaceAll("-", "_"));
}

type Report = (at: Node, message: string) => void;

/** Reads `url`: an absolute http(s) address without credentials in it. */
export function readUrl(here: string, value: Node, report: Report): string | undefined {
  const example = '"https://mcp.example.com/mcp"';
  if (value.type !== "string") {
    report(value, `${here} must be the server's address as a string, e.g. ${example}`);
    return undefined;
  }
  const text = String(value.value);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    report(value, `${here} is not an address hel can read; write a whole one, e.g. ${example}`);
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    report(value, `${here} must start with http:// or https://, e.g. ${example}`);
    return undefined;
  }
  if (url.username !== "" || url.password !== "") {
    report(
      value,
      `${here} has a user name or password in it, which would be sent to the server and shown ` +
        'in reviews; take it out and use "bearerTokenEnv" or "headers" with {"env": "NAME"}',
    );
    return undefined;
  }
  return text;
}

/** Reads `transport`: "http" or "sse". */
export function readTransport(
  here: string,
  value: Node,
  report: Report,
): RemoteTransportKind | undefined {
  if (value.type === "string" && (value.value === "http" || value.value === "sse")) {
    return value.value;
  }
  report(
    value,
    `${here} must be "http" (Streamable HTTP) or "sse" (the older HTTP+SSE transport); leave ` +
      "it out to use Streamable HTTP and fall back to SSE when the server answers that way",
  );
  return undefined;
}

/** Reads `bearerTokenEnv`: the name of a variable of hel's environment. */
export function readVariableName(here: string, value: Node, report: Report): string | undefined {
  if (value.type === "string" && VARIABLE_NAME.test(String(value.value))) {
    return String(value.value);
  }
  report(
    value,
    `${here} must be the name of a variable in your environment, e.g. "GITHUB_TOKEN" (its ` +
      "value is read when the server is reached, and never written in the file)",
  );
  return undefined;
}

/** Reads `headers`: header name to `{"env": "NAME"}` or, for a harmless header, a string. */
export function readHeaders(
  here: string,
  value: Node,
  report: Report,
  properties: (node: Node) => { name: string; key: Node; value: Node }[],
): Record<string, HeaderSource> | undefined {
  if (value.type !== "object") {
    report(value, `${here} must be an object of header name to {"env": "VARIABLE"}`);
    return undefined;
  }
  const headers: Record<string, HeaderSource> = {};
  const seen = new Set<string>();
  let bad = false;
  for (const { name, key, value: setting } of properties(value)) {
    const at = `${here}.${name}`;
    const fail = (node: Node, message: string) => {
      bad = true;
      report(node, message);
    };
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) {
      fail(key, `${at}: ${JSON.stringify(name)} is not a valid HTTP header name`);
      continue;
    }
    if (RESERVED.has(lower)) {
      fail(key, `${at}: hel's MCP transport sets ${name} itself; leave it out`);
      continue;
    }
    if (seen.has(lower)) {
      fail(key, `${at}: header names are case-insensitive, and ${name} is given twice`);
      continue;
    }
    seen.add(lower);
    const source = readHeaderValue(at, name, setting, fail, properties);
    if (source) headers[name] = source;
  }
  return bad ? undefined : headers;
}

function readHeaderValue(
  at: string,
  name: string,
  setting: Node,
  fail: Report,
  properties: (node: Node) => { name: string; key: Node; value: Node }[],
): HeaderSource | undefined {
  const fromEnv = `{"env": "${envNameFor(name)}"}`;
  if (setting.type === "string") {
    const text = String(setting.value);
    if (text.includes("$")) {
      fail(
        setting,
        `${at} is ${JSON.stringify(text)}, but hel does not expand variables inside values; ` +
          `write ${fromEnv} to send the value of a variable of yours`,
      );
    } else if (secretHeader(name)) {
      fail(
        setting,
        `${at} looks like a credential, so its value may not be written in the file (it would ` +
          `be shared and shown); write ${fromEnv} and set that variable in your environment` +
          (name.toLowerCase() === "authorization"
            ? ', or use "bearerTokenEnv": "NAME" for a bearer token'
            : ""),
      );
    } else if (/[\r\n\0]/.test(text)) {
      fail(setting, `${at} has a line break or NUL in it, which no header value may have`);
    } else return { value: text };
    return undefined;
  }
  if (setting.type === "object") {
    const fields = properties(setting);
    const env = fields.find((field) => field.name === "env");
    if (fields.length === 1 && env && env.value.type === "string") {
      const variable = String(env.value.value);
      if (VARIABLE_NAME.test(variable)) return { env: variable };
    }
  }
  fail(setting, `${at} must be ${fromEnv} (the value of your variable of that name)`);
  return undefined;
}

/** `X-Api-Key` → `X_API_KEY`: the example variable name messages suggest. */
function envNameFor(header: string): string {
  return header.toUpperCase().replace(/[^A-Z0-9_]/g, "_");
}

/** What the review and `hel mcp list/get` show of the headers: names and variables, no values. */
export function shownHeaders(remote: RemoteServer): string[] {
  const shown = Object.entries(remote.headers).map(([name, source]) =>
    "env" in source ? `${name} (from ${source.env})` : `${name} (set in the file)`
  );
  if (remote.bearerTokenEnv) shown.unshift(`Authorization (bearer, from ${remote.bearerTokenEnv})`);
  return shown;
}

/** The transport as people read it. */
export function transportText(remote: RemoteServer): string {
  return remote.transport === "sse"
    ? "HTTP+SSE"
    : remote.transport === "http"
    ? "Streamable HTTP"
    : "Streamable HTTP (HTTP+SSE when the server answers that way)";
}
