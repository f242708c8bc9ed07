/**
 * hel's `OAuthClientProvider` for the grants without a person (oauth_config.ts): client
 * credentials (a secret by `client_secret_basic`, or a private key signing a `private_key_jwt`
 * assertion with the SDK's own signer) and cross-app access (an ID-JAG from the identity
 * provider, oauth_id_jag.ts, taken by the jwt-bearer grant). The SDK does discovery and the
 * token request when the server answers 401; there is no browser and no `hel mcp login`
 * (which, for these grants, only fetches a token at once). Tokens are kept in the login file
 * of the server's address like a browser login's (oauth_store.ts), so the next run reuses
 * them until the server refuses them.
 *
 * The client's credentials are bound on first use to the authorization server that took them
 * (its issuer, kept in the login file): a server that later names another one does not get
 * them sent there; `hel mcp logout` forgets the binding.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/auth"
import type {
  AddClientAuthentication,
  OAuthClientProvider,
  OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
// @ts-types="@modelcontextprotocol/sdk/client/auth-extensions"
import { createPrivateKeyJwtAuth } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
// @ts-types="@modelcontextprotocol/sdk/shared/auth"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Fetch } from "./bounded_fetch.ts";
import type { OAuthSettings } from "./oauth_config.ts";
import { requestIdJag } from "./oauth_id_jag.ts";
import { preRegisteredClient } from "./oauth_issuer_pin.ts";
import type { StoredLogin } from "./oauth_store.ts";
import { StoredLoginProvider } from "./oauth_stored_provider.ts";

/** The secrets of a grant, read from the person's environment or files (oauth_secrets.ts). */
export interface MachineSecrets {
  clientSecret?: string;
  privateKey?: string;
  idToken?: string;
  idpClientSecret?: string;
}

/** What the provider needs. */
export interface MachineOAuthOptions {
  helHome: string;
  /** The server's address: the login file's key. */
  url: string;
  settings: OAuthSettings & { clientId: string };
  secrets: MachineSecrets;
  stored?: StoredLogin;
  /** For the identity provider's token exchange (cross-app access). */
  fetchFn: Fetch;
}

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** Client credentials or cross-app access, stored per server address. */
export class MachineOAuthProvider extends StoredLoginProvider implements OAuthClientProvider {
  #options: MachineOAuthOptions;
  #discovery: OAuthDiscoveryState | undefined;
  addClientAuthentication?: AddClientAuthentication;

  constructor(options: MachineOAuthOptions) {
    super(options.helHome, options.url, options.stored);
    this.#options = options;
    const { settings, secrets } = options;
    if (secrets.privateKey) {
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: settings.clientId,
        subject: settings.clientId,
        privateKey: secrets.privateKey,
        alg: settings.signingAlgorithm ?? "RS256",
      });
    }
  }

  /** None: no browser comes back to hel in these grants (the SDK reads this as "no person"). */
  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { settings, secrets } = this.#options;
    return {
      client_name: "hel",
      redirect_uris: [],
      grant_types: [settings.grant === "cross_app_access" ? JWT_BEARER : "client_credentials"],
      token_endpoint_auth_method: secrets.privateKey ? "private_key_jwt" : "client_secret_basic",
      ...(settings.scopes ? { scope: settings.scopes.join(" ") } : {}),
    };
  }

  clientInformation(): OAuthClientInformationMixed {
    const { settings, secrets } = this.#options;
    return preRegisteredClient(settings, secrets.clientSecret, this.login.client);
  }

  /** Keeps which authorization server the credentials went to; never the secret. */
  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    this.login.client = { client_id: client.client_id, issuer: client.issuer };
    await this.save();
  }

  redirectToAuthorization(): void {
    throw new Error(`"grant": "${this.#options.settings.grant}" has no browser login`);
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new Error(`"grant": "${this.#options.settings.grant}" uses no PKCE code verifier`);
  }

  /** Where discovery led: the cross-app grant needs the authorization server and resource. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "client" || scope === "tokens") {
      delete this.login.tokens;
      await this.save();
    }
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const { settings, secrets, url, fetchFn } = this.#options;
    if (settings.grant !== "cross_app_access") {
      return new URLSearchParams({ grant_type: "client_credentials", ...(scope ? { scope } : {}) });
    }
    const discovery = this.#discovery;
    const audience = discovery?.authorizationServerMetadata?.issuer ??
      discovery?.authorizationServerUrl;
    if (!audience) throw new Error("the server named no authorization server to exchange with");
    const assertion = await requestIdJag({
      tokenEndpoint: settings.idpTokenEndpoint!,
      idToken: secrets.idToken!,
      clientId: settings.idpClientId!,
      clientSecret: secrets.idpClientSecret,
      audience: String(audience),
      resource: discovery?.resourceMetadata?.resource ?? url,
      scope,
      fetchFn,
    });
    return new URLSearchParams({ grant_type: JWT_BEARER, assertion, ...(scope ? { scope } : {}) });
  }
}
