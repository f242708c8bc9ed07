/**
 * A remote server's refusals and failures, worded for the person (remote_transport.ts). A 401
 * or a 403 `insufficient_scope` (the call needs a scope the login did not grant: step-up) from
 * a server hel logs in to, on the first request or any later one, reads "needs login" (or
 * "needs login again") with the command that logs in, not a closed connection or the SDK's
 * "Error POSTing to endpoint"; other refusals name the status and what to check.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/sse"
import { SseError } from "@modelcontextprotocol/sdk/client/sse.js";
// @ts-types="@modelcontextprotocol/sdk/client/auth"
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { errorMessage } from "../../core/mod.ts";
import { type Challenge, scopeText } from "./oauth_challenge.ts";
import { NeedsLoginError } from "./oauth_provider.ts";

/** The HTTP status of a transport's error, if it is one. */
function statusOf(error: unknown): number | undefined {
  return error instanceof StreamableHTTPError || error instanceof SseError ? error.code : undefined;
}

/** True when only the person can act: a login is missing, expired or lacks a scope. */
function needsLogin(error: unknown, challenge: Challenge | undefined): boolean {
  const code = statusOf(error);
  return error instanceof UnauthorizedError || error instanceof NeedsLoginError ||
    code === 401 || (code === 403 && challenge?.error === "insufficient_scope");
}

/** What the server asked for, in brackets after "needs login". */
function because(url: string, error: unknown, challenge: Challenge | undefined): string {
  const asked = error instanceof NeedsLoginError ? error.scope : challenge?.scope;
  const scope = asked ? ` "${asked.slice(0, 200)}"` : "";
  if (statusOf(error) === 403 || (error instanceof NeedsLoginError && asked)) {
    return `${url} wants the scope${scope}, which the login did not grant (403 ` +
      "insufficient_scope); logging in again asks for it";
  }
  return `${url} answered 401 unauthorized: it wants an OAuth login, and hel has none for it ` +
    "or the one it had expired";
}

/**
 * Why the first request failed; `login` is the command that logs in, for a server whose entry
 * sends no Authorization of its own; `challenge` what the server's refusal asked for.
 */
export function unreachableText(
  url: string,
  error: unknown,
  login?: string,
  challenge?: Challenge,
): string {
  if (login && needsLogin(error, challenge)) {
    return `needs login: run ${login} (${because(url, error, challenge)})`;
  }
  return refusedText(url, error, login, challenge) ??
    `could not connect to ${url}: ${failureText(error)}`;
}

/** A refusal of a request after the first, worded for the person; undefined for others. */
export function refusedText(
  url: string,
  error: unknown,
  login?: string,
  challenge?: Challenge,
): string | undefined {
  if (login && needsLogin(error, challenge)) {
    return `needs login again: run ${login} (${because(url, error, challenge)})`;
  }
  const code = statusOf(error);
  if (code !== 401 && code !== 403) return undefined;
  return `${url} answered ${code} (${code === 401 ? "unauthorized" : "forbidden"}): it ` +
    'needs credentials hel did not send or the server refused; check "bearerTokenEnv" or ' +
    '"headers" in its entry' + (login ? `, or log in: ${login}` : "");
}

/** An error's message, with fetch's cause (refused, no such host), on one bounded line. */
export function failureText(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  // The SDK's OAuth errors carry the authorization server's code (invalid_client, ...).
  const code = (error as { errorCode?: unknown })?.errorCode;
  const message = errorMessage(error);
  // The SDK refused to send the client's credentials to another authorization server.
  const bound = /bound to authorization server (\S+) and is not presented to (\S+?)\.? /
    .exec(message);
  if (bound) {
    // The server wrote the address: printable characters only, bounded.
    const shown = (text: string) => scopeText(text, 200) ?? "?";
    return `the server sends hel to the authorization server ${shown(bound[2]!)}, but the ` +
      `client's credentials belong to ${shown(bound[1]!)} ("oauth.issuer", or where they were ` +
      'first used), so hel sent them nowhere; if it moved, change "issuer" or forget it with ' +
      "hel mcp logout";
  }
  const text = typeof code === "string"
    ? `the authorization server answered ${code}${message ? `: ${message}` : ""}` +
      (code === "invalid_client" ? "; check the client ID and its secret or key" : "")
    : message + (cause ? ` (${errorMessage(cause)})` : "");
  return text.replace(/\s+/g, " ").slice(0, 300);
}
