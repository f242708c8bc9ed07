/**
 * What `hel mcp list`, `hel mcp get` and a run's trust review say about a remote server's
 * login: read from the token store only (oauth_store.ts), never by asking the server, so
 * `hel mcp get` stays offline and a review shows before anything is reached. Also how an
 * entry's `"oauth"` settings read (names of variables, never their values).
 *
 * @module
 */
import type { ServerConfig } from "./config.ts";
import { LoginFileError, readLogin, type StoredLogin } from "./oauth_store.ts";
import { isMachineGrant, loginCommand } from "./oauth_run.ts";
import { sendsOwnAuthorization } from "./remote_headers.ts";

/** A remote server's login as the token store has it. */
export type LoginState =
  /** The entry sends its own `Authorization` (bearerTokenEnv, a header): hel never logs in. */
  | { state: "not-used" }
  /** Nothing stored; the server may not need a login. */
  | { state: "none" }
  /** Nothing usable stored and the entry has `"oauth"`, or a run was refused for a scope. */
  | { state: "needs-login"; scope?: string }
  /** A grant without a person (client_credentials, cross_app_access) and no token yet. */
  | { state: "at-connection" }
  | { state: "logged-in"; since?: string; expiresAt?: string }
  /** The access token's time is up; with a refresh token a run renews it without you. */
  | { state: "expired"; at: string; refreshable: boolean }
  /** The login file is not one hel will read (a link, not its JSON). */
  | { state: "unusable"; reason: string };

/** Reads the login state of a remote server; undefined for a stdio one. */
export async function loginState(
  helHome: string,
  config: ServerConfig,
  now = Date.now(),
): Promise<LoginState | undefined> {
  if (!config.remote) return undefined;
  if (sendsOwnAuthorization(config.remote)) return { state: "not-used" };
  let stored: StoredLogin | undefined;
  try {
    stored = await readLogin(helHome, config.remote.url);
  } catch (error) {
    if (!(error instanceof LoginFileError)) throw error;
    return { state: "unusable", reason: error.message };
  }
  // No one logs in for these grants: hel asks the token endpoint itself when it connects.
  const machine = isMachineGrant(config);
  const tokens = stored?.tokens;
  if (machine && (stored?.wantedScope || !tokens?.access_token)) return { state: "at-connection" };
  if (stored?.wantedScope) return { state: "needs-login", scope: stored.wantedScope };
  if (!tokens?.access_token) {
    return config.remote.oauth ? { state: "needs-login" } : { state: "none" };
  }
  const since = validTime(stored?.savedAt);
  const lifetime = Number(tokens.expires_in);
  const expiresAt = since !== undefined && Number.isFinite(lifetime) && lifetime > 0
    ? since + lifetime * 1000
    : undefined;
  if (expiresAt !== undefined && expiresAt <= now) {
    return {
      state: "expired",
      at: new Date(expiresAt).toISOString(),
      refreshable: machine ||
        (typeof tokens.refresh_token === "string" && tokens.refresh_token !== ""),
    };
  }
  return {
    state: "logged-in",
    ...(since !== undefined ? { since: new Date(since).toISOString() } : {}),
    ...(expiresAt !== undefined ? { expiresAt: new Date(expiresAt).toISOString() } : {}),
  };
}

/** The state as one line's text, naming the command that logs in when one is needed. */
export function loginText(state: LoginState, config: ServerConfig): string {
  const command = loginCommand(config);
  switch (state.state) {
    case "not-used":
      return "not used: the entry sends its own Authorization header";
    case "none":
      return `none stored (if the server asks for one: ${command})`;
    case "needs-login":
      return `needs login${
        state.scope ? ` for the scope ${JSON.stringify(state.scope.slice(0, 200))}` : ""
      }: run ${command}`;
    case "at-connection":
      return "no token yet: token fetched at connection (no login needed)";
    case "logged-in":
      return "logged in" + (state.since ? ` since ${shortTime(state.since)}` : "") +
        (state.expiresAt ? `, token valid until ${shortTime(state.expiresAt)}` : "");
    case "expired":
      return `token expired at ${shortTime(state.at)}` +
        (isMachineGrant(config)
          ? "; the next connection fetches a new one"
          : state.refreshable
          ? "; the next connection renews it with the stored refresh token"
          : `: run ${command}`);
    case "unusable":
      return `the stored login cannot be used: ${state.reason}`;
  }
}

/** The short words the trust review uses: whether your stored login goes to this address. */
export function reviewLoginText(state: LoginState): string | undefined {
  switch (state.state) {
    case "logged-in":
    case "expired":
      return "gets your stored login for this address";
    default:
      return undefined;
  }
}

function validTime(text: string | undefined): number | undefined {
  const time = text === undefined ? NaN : Date.parse(text);
  return Number.isFinite(time) ? time : undefined;
}

/** `2026-12-01 23:10 UTC`: minutes are enough to tell whether a token is still good. */
function shortTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
