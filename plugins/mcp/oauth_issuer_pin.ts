/**
 * The check that keeps a pre-registered client (the entry's `clientId`) away from an
 * authorization server it is not bound to, made as soon as discovery names the server: before
 * the SDK registers a client there (dynamic registration sends hel's metadata to whatever
 * server the MCP server named) and long before any secret would go there. The SDK would only
 * notice later, when it saves the client it registered.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/shared/auth"
import type { OAuthClientInformationMixed } from "@modelcontextprotocol/sdk/shared/auth.js";

/** The words remote_refusal.ts reads to explain the refusal; the SDK's own error reads alike. */
export function boundElsewhereText(bound: string, named: string): string {
  return `OAuth client information is bound to authorization server ${bound} and is not ` +
    `presented to ${named}. `;
}

/** True when two authorization server addresses are the same (a final "/" aside). */
export function sameIssuer(a: string, b: string): boolean {
  const plain = (text: string) => {
    try {
      return new URL(text).href.replace(/\/$/, "");
    } catch {
      return text.replace(/\/$/, "");
    }
  };
  return plain(a) === plain(b);
}

/**
 * The entry's pre-registered client as the SDK is given it: with its secret when it has one,
 * bound to the entry's issuer, else to the authorization server that first took it (`stored`,
 * the client kept in the login file).
 */
export function preRegisteredClient(
  settings: { clientId: string; issuer?: string },
  clientSecret: string | undefined,
  stored: OAuthClientInformationMixed | undefined,
): OAuthClientInformationMixed {
  const issuer = settings.issuer ??
    (stored?.client_id === settings.clientId ? stored.issuer : undefined);
  return {
    client_id: settings.clientId,
    ...(clientSecret ? { client_secret: clientSecret } : {}),
    ...(issuer ? { issuer } : {}),
  };
}
