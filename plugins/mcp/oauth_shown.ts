/**
 * What a remote entry's `"oauth"` sends where, for the trust review and `hel mcp list/get`:
 * the grant, the client, and the names of the variables (or the key file) whose values go out,
 * never the values. A project's entry naming `"idTokenEnv": "GITHUB_TOKEN"` and an identity
 * provider of its own would send your token there; the review has to show it.
 *
 * @module
 */
import type { OAuthSettings } from "./oauth_config.ts";

/** One line of what the OAuth settings send, or undefined when there are none. */
export function shownOAuth(oauth: OAuthSettings | undefined): string | undefined {
  if (!oauth) return undefined;
  const secret = oauth.clientSecretEnv ? `, secret from ${oauth.clientSecretEnv}` : "";
  const at = oauth.issuer ? ` at ${oauth.issuer}` : "";
  const client = oauth.clientId
    ? `client ${oauth.clientId}${at}${secret}`
    : oauth.clientMetadataUrl
    ? `client metadata document ${oauth.clientMetadataUrl}`
    : "client registered at login";
  const scopes = oauth.scopes ? `; scopes ${oauth.scopes.join(" ")}` : "";
  const key = oauth.privateKeyEnv
    ? `, private key from ${oauth.privateKeyEnv}`
    : oauth.privateKeyFile
    ? `, private key file ${oauth.privateKeyFile}`
    : "";
  // Without "issuer" the credential goes wherever the MCP server's metadata points: say so.
  const proof = oauth.clientSecretEnv ? "the secret" : key ? "what the key signs" : undefined;
  const where = proof && !oauth.issuer
    ? `; ${proof} goes to the authorization server the MCP server names`
    : "";
  switch (oauth.grant ?? "authorization_code") {
    case "client_credentials":
      return `OAuth client credentials (no browser): ${client}${key}${where}${scopes}`;
    case "cross_app_access": {
      const idpSecret = oauth.idpClientSecretEnv ? `, secret from ${oauth.idpClientSecretEnv}` : "";
      return `OAuth cross-app access (no browser): your ID token from ${oauth.idTokenEnv} goes ` +
        `to ${oauth.idpTokenEndpoint} (client ${oauth.idpClientId}${idpSecret}); ${client}` +
        where + scopes;
    }
    default: {
      const port = oauth.callbackPort === undefined ? "" : `; redirect port ${oauth.callbackPort}`;
      return `OAuth login (hel mcp login): ${client}${where}${scopes}${port}`;
    }
  }
}
