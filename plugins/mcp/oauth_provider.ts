/**
 * hel's `OAuthClientProvider` for the MCP SDK's client auth: the SDK does discovery (protected
 * resource and authorization server metadata), dynamic client registration, PKCE, scopes from
 * `WWW-Authenticate`, step-up and refresh; this keeps what it hands over in the login file of the
 * server's address (oauth_store.ts) and says where the person's browser must go.
 *
 * Two modes. `hel mcp login` ("login") sends the browser to the authorization page and gets the
 * code back on a loopback redirect (oauth_login.ts). A run ("run") only uses a login made
 * before: it sends the stored access token, lets the SDK refresh it and save the new one, and
 * when the SDK would need the person (no valid token, refresh refused) it stops with
 * {@link NeedsLoginError} instead of opening anything, so the run goes on without the server.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/auth"
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
// @ts-types="@modelcontextprotocol/sdk/shared/auth"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
} from "@modelcontextprotocol/sdk/shared/auth.js";
// @ts-types="@modelcontextprotocol/sdk/client/auth"
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Fetch } from "./bounded_fetch.ts";
import { scopeText } from "./oauth_challenge.ts";
import type { OAuthSettings } from "./oauth_config.ts";
import { boundElsewhereText, preRegisteredClient, sameIssuer } from "./oauth_issuer_pin.ts";
import { lockedRefresh } from "./oauth_refresh_lock.ts";
import type { StoredLogin } from "./oauth_store.ts";
import { StoredLoginProvider } from "./oauth_stored_provider.ts";

/** Thrown in a run when only the person can authorize hel again. */
export class NeedsLoginError extends Error {
  override name = "NeedsLoginError";
  /** The scope the server asked for (step-up), printable, if it named one. */
  readonly scope: string | undefined;
  constructor(how?: string, scope?: string) {
    super(`the server needs you to log in${how ? ` ${how}` : ""}`);
    this.scope = scope;
  }
}

/** What the provider needs. */
export interface HelOAuthOptions {
  helHome: string;
  /** The server's address: the login file's key. */
  url: string;
  settings?: OAuthSettings;
  /** The client secret's value, read from `settings.clientSecretEnv`. */
  clientSecret?: string;
  /** What was stored by an earlier login (a run has one; a login may start from it). */
  stored?: StoredLogin;
  /** "login": the browser is sent; "run": {@link NeedsLoginError} instead. */
  mode: "login" | "run";
  /** The loopback redirect address (login); a run registers nothing, so any will do. */
  redirectUrl?: string;
  /** The command that logs in again, for a run's "needs login" (`hel mcp login NAME`). */
  loginCommand?: string;
  /** Sends the person's browser to the authorization page (login). */
  openAuthorization?: (url: URL) => Promise<void>;
}

/** The SDK's client auth, stored per server address under `$HEL_HOME/mcp-auth/`. */
export class HelOAuthProvider extends StoredLoginProvider implements OAuthClientProvider {
  #options: HelOAuthOptions;
  #verifier: string | undefined;
  #state: string | undefined;

  constructor(options: HelOAuthOptions) {
    super(options.helHome, options.url, options.stored);
    this.#options = options;
  }

  get redirectUrl(): string {
    return this.#options.redirectUrl ?? "http://127.0.0.1/callback";
  }

  /**
   * The entry's client ID metadata document (SEP-991): the SDK uses its address as the client
   * ID, instead of registering, when the authorization server says it fetches such documents.
   */
  get clientMetadataUrl(): string | undefined {
    return this.#options.settings?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.#options.settings?.scopes;
    return {
      client_name: "hel",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.#options.clientSecret ? "client_secret_post" : "none",
      ...(scopes ? { scope: scopes.join(" ") } : {}),
    };
  }

  /**
   * The fetch the transport gives the SDK, with this login's refreshes one at a time across
   * hel processes (oauth_refresh_lock.ts).
   */
  guardFetch(fetchFn: Fetch): Fetch {
    return lockedRefresh(fetchFn, this.#options.helHome, this.#options.url);
  }

  /** The `state` sent with this login's authorization request; checked on the redirect. */
  state(): string {
    this.#state ??= crypto.randomUUID().replaceAll("-", "");
    return this.#state;
  }

  /** The state sent, if the flow got that far. */
  get sentState(): string | undefined {
    return this.#state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { settings, clientSecret } = this.#options;
    if (settings?.clientId) {
      // A pre-registered client: the entry's, never one registered for another address.
      return preRegisteredClient(
        { clientId: settings.clientId, issuer: settings.issuer },
        clientSecret,
        this.login.client,
      );
    }
    if (this.#options.mode === "run" && !this.login.client) throw new NeedsLoginError();
    return this.login.client;
  }

  /**
   * Where discovery led, before the SDK registers or sends anything there: the entry's client
   * is bound to one authorization server (oauth_issuer_pin.ts), so another one stops the flow.
   */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    if (!this.#options.settings?.clientId) return;
    const bound = this.clientInformation()?.issuer;
    const named = state.authorizationServerUrl;
    if (bound && !sameIssuer(bound, named)) throw new Error(boundElsewhereText(bound, named));
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    const clientId = this.#options.settings?.clientId;
    if (clientId && client.client_id !== clientId) {
      // Kept behind saveDiscoveryState's check: the entry's client goes nowhere else.
      throw new Error(
        boundElsewhereText(`${this.clientInformation()?.issuer}`, `${client.issuer}`),
      );
    }
    // A pre-registered client's secret stays in the person's environment, not in the file:
    // only which authorization server took it is kept.
    this.login.client = clientId ? { client_id: clientId, issuer: client.issuer } : client;
    await this.save();
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.#options.mode === "run" || !this.#options.openAuthorization) {
      // The scope the SDK chose (the server's challenge first): the next login asks for it.
      // Scope-token characters only: the server wrote them.
      const scope = scopeText(url.searchParams.get("scope") ?? undefined, 1000);
      if (scope && this.#options.mode === "run" && scope !== this.login.wantedScope) {
        this.login.wantedScope = scope;
        await this.save();
      }
      const command = this.#options.loginCommand;
      throw new NeedsLoginError(
        (scope ? `for the scope "${scope.slice(0, 200)}"` : "again") +
          (command ? `: run ${command}` : ""),
        scope,
      );
    }
    await this.#options.openAuthorization(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.#verifier) throw new Error("no PKCE code verifier was made for this login");
    return this.#verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "verifier") this.#verifier = undefined;
    if (scope === "all" || scope === "client") delete this.login.client;
    if (scope === "all" || scope === "tokens") delete this.login.tokens;
    if (scope !== "verifier" && scope !== "discovery") await this.save();
  }
}
