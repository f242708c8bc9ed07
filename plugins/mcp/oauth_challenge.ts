/**
 * What a server says when it wants a login: its `WWW-Authenticate` challenge. `hel mcp login`
 * asks the server first, without credentials, as a run would (an `initialize` request), so the
 * flow starts where the server points: the protected resource metadata address named by
 * `resource_metadata` (it may be anywhere, not only at the well-known paths) and the `scope` it
 * asks for. A server that lets `initialize` through without a token gives no challenge; then
 * discovery starts from the well-known paths, and the scope is what a run was refused for
 * (oauth_provider.ts records it: step-up on `insufficient_scope`) or what the server advertises.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/auth"
import { extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Fetch } from "./bounded_fetch.ts";

/** The parts of a challenge hel uses. */
export interface Challenge {
  resourceMetadataUrl?: URL;
  /** The scopes the server asks for, space-separated (scope-token characters only). */
  scope?: string;
  /** The error it names, e.g. `insufficient_scope` (step-up) or `invalid_token`. */
  error?: string;
}

/**
 * The challenge of a 401/403 answer's `WWW-Authenticate: Bearer ...` (the SDK's parser), with
 * what the server wrote cut to printable scope-token characters and bounded, since it is shown.
 */
export function readChallenge(response: Response): Challenge {
  const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(response);
  const scopes = scopeText(scope, 1000);
  const code = scopeText(error, 100);
  return {
    ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
    ...(scopes ? { scope: scopes } : {}),
    ...(code ? { error: code } : {}),
  };
}

/**
 * Text a server wrote that hel shows (scopes, an error code, an address), cut to RFC 6749
 * scope-token characters (printable ASCII but `"` and `\`) and spaces and to `max` characters;
 * undefined when nothing is left.
 */
export function scopeText(text: string | undefined, max: number): string | undefined {
  const kept = text?.replace(/[^\x21\x23-\x5B\x5D-\x7E ]/g, "").trim().slice(0, max);
  return kept ? kept : undefined;
}

/** How long the probe waits for the server. */
const PROBE_MS = 30_000;

/** Asks `url` without credentials; the challenge of a 401/403 answer, else an empty one. */
export async function probeChallenge(url: string, fetchFn: Fetch): Promise<Challenge> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "hel", version: "login" },
        },
      }),
      signal: AbortSignal.timeout(PROBE_MS),
    });
  } catch {
    // Unreachable now: the discovery that follows says so with its own error.
    return {};
  }
  await response.body?.cancel().catch(() => {});
  if (response.status !== 401 && response.status !== 403) return {};
  return readChallenge(response);
}

/** The scope tokens of several space-separated lists, each once, in order. */
export function joinScopes(...lists: (string | undefined)[]): string | undefined {
  const tokens = [...new Set(lists.flatMap((list) => list?.split(/\s+/) ?? []))]
    .filter((token) => token !== "");
  return tokens.length > 0 ? tokens.join(" ") : undefined;
}
