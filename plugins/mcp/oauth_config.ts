/**
 * A remote entry's `"oauth"` field: how hel logs in to a server whose authorization server
 * does not register clients itself (no dynamic client registration), or that wants particular
 * scopes. `{"clientId": "...", "clientSecretEnv": "VAR", "scopes": ["read"], "callbackPort":
 * 33418}`, every field optional but the object non-empty. A client secret is never written in
 * the file, only the name of the variable it comes from, as for headers.
 *
 * @module
 */
import type { Node } from "jsonc-parser";

/** What the entry says about logging in. */
export interface OAuthSettings {
  /** A client registered beforehand with the authorization server. */
  clientId?: string;
  /** The variable holding that client's secret (a confidential client). */
  clientSecretEnv?: string;
  /** Scopes to ask for, instead of those the server advertises. */
  scopes?: string[];
  /** The loopback port of the redirect, for a client registered with a fixed one. */
  callbackPort?: number;
}

const FIELDS = ["clientId", "clientSecretEnv", "scopes", "callbackPort"] as const;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** RFC 6749 scope-token characters. */
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const EXAMPLE = '{"clientId": "hel-cli", "scopes": ["mcp:tools"]}';

type Report = (at: Node, message: string) => void;

/** Reads `oauth`; `properties` lists an object's pairs (each name once). */
export function readOAuth(
  here: string,
  value: Node,
  report: Report,
  properties: (node: Node) => { name: string; key: Node; value: Node }[],
): OAuthSettings | undefined {
  if (value.type !== "object") {
    report(value, `${here} must be an object, e.g. ${EXAMPLE}`);
    return undefined;
  }
  const settings: OAuthSettings = {};
  let bad = false;
  const fail = (at: Node, message: string) => {
    bad = true;
    report(at, message);
  };
  const pairs = properties(value);
  if (pairs.length === 0) fail(value, `${here} is empty; leave it out, or write e.g. ${EXAMPLE}`);
  for (const { name, key, value: setting } of pairs) {
    const at = `${here}.${name}`;
    const text = setting.type === "string" ? String(setting.value) : undefined;
    switch (name) {
      case "clientId":
        if (text === undefined || text.trim() === "" || /[\s\0]/.test(text) || text.length > 500) {
          fail(setting, `${at} must be the client ID the authorization server gave you, a string`);
        } else settings.clientId = text;
        break;
      case "clientSecretEnv":
        if (text === undefined || !VARIABLE.test(text)) {
          fail(
            setting,
            `${at} must be the name of a variable in your environment holding the client ` +
              'secret, e.g. "MCP_CLIENT_SECRET" (a secret is never written in the file)',
          );
        } else settings.clientSecretEnv = text;
        break;
      case "scopes": {
        const scopes = (setting.children ?? []).map((child) => child.value);
        if (
          setting.type !== "array" || scopes.length === 0 ||
          !scopes.every((scope) => typeof scope === "string" && SCOPE.test(scope))
        ) {
          fail(setting, `${at} must be a non-empty list of scope names, e.g. ["mcp:tools"]`);
        } else settings.scopes = scopes as string[];
        break;
      }
      case "callbackPort": {
        const port = setting.value;
        if (typeof port !== "number" || !Number.isInteger(port) || port < 1024 || port > 65535) {
          fail(
            setting,
            `${at} must be a port number from 1024 to 65535, the one registered with the ` +
              "client's redirect address; leave it out for a free port",
          );
        } else settings.callbackPort = port;
        break;
      }
      default:
        fail(key, `unknown field ${at}; allowed: ${FIELDS.join(", ")}`);
    }
  }
  if (settings.clientSecretEnv && !settings.clientId) {
    fail(value, `${here}.clientSecretEnv needs ${here}.clientId, the client it is the secret of`);
  }
  return bad ? undefined : settings;
}
