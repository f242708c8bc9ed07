/**
 * What both of hel's `OAuthClientProvider`s (oauth_provider.ts for a person's login,
 * oauth_machine.ts for the grants without one) keep alike: the login file of the server's
 * address (oauth_store.ts), held in memory and written whole whenever the SDK hands over
 * something to keep, and the tokens in it.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/shared/auth"
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { type StoredLogin, writeLogin } from "./oauth_store.ts";

/** A provider whose state is the login file of one server address. */
export abstract class StoredLoginProvider {
  /** The login file's content: `stored`, or a new one for the address. */
  protected readonly login: StoredLogin;
  readonly #helHome: string;

  constructor(helHome: string, url: string, stored: StoredLogin | undefined) {
    this.#helHome = helHome;
    this.login = stored ? { ...stored } : { url };
  }

  tokens(): OAuthTokens | undefined {
    return this.login.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.login.tokens = tokens;
    await this.save();
  }

  /** Writes the login file (mode 0600, never through a link: oauth_store.ts). */
  protected async save(): Promise<void> {
    await writeLogin(this.#helHome, this.login);
  }
}
