/**
 * The check of each field of a remote entry's `"oauth"` (oauth_config.ts): what a valid value
 * is, and, when it is not, the end of the message that says so and how to write it.
 *
 * @module
 */
import type { Node } from "jsonc-parser";
import { VARIABLE_NAME } from "../../kit/mod.ts";

/** How hel gets a token (oauth_config.ts). */
export type OAuthGrant = "authorization_code" | "client_credentials" | "cross_app_access";

/** The grants, in the order messages list them. */
export const GRANTS: readonly OAuthGrant[] = [
  "authorization_code",
  "client_credentials",
  "cross_app_access",
];

/**
 * The JWS algorithms a private key may sign the client's assertion with: those the SDK's signer
 * (createPrivateKeyJwtAuth) takes a PEM key for. It refuses EdDSA ("Unsupported algorithm"), so
 * EdDSA is not offered (oauth_signing_test.ts signs with each).
 */
export const SIGNING_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
];

/** RFC 6749 scope-token characters. */
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** A value read, or the end of a message saying what it must be. */
type Check = (node: Node) => { value: unknown } | string;

const text = (node: Node) => node.type === "string" ? String(node.value) : undefined;

const variable = (what: string, example: string): Check => (node) => {
  const value = text(node);
  return value !== undefined && VARIABLE_NAME.test(value) ? { value } : `must be the name of a ` +
    `variable in your environment holding ${what}, e.g. "${example}" (a secret is never ` +
    "written in the file)";
};

const clientId = (where: string): Check => (node) => {
  const value = text(node);
  return value !== undefined && value.trim() !== "" && !/[\s\0]/.test(value) &&
      value.length <= 500
    ? { value }
    : `must be the client ID ${where} gave you, a string`;
};

/** An absolute URL; https, or http to this machine only when `loopbackHttp`. */
const address = (what: string, example: string, rule: (url: URL) => boolean): Check => (node) => {
  const value = text(node);
  let url: URL | undefined;
  try {
    url = value !== undefined && value.length <= 2000 ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  return url && rule(url) && url.username === "" && url.password === ""
    ? { value }
    : `must be ${what}, e.g. "${example}"`;
};

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** The checks, by field name. */
export const FIELD_CHECKS = {
  grant: (node: Node) =>
    GRANTS.includes(text(node) as OAuthGrant)
      ? { value: text(node) }
      : `must be one of ${GRANTS.map((grant) => `"${grant}"`).join(", ")}; leave it out for ` +
        "a browser login (hel mcp login)",
  clientId: clientId("the authorization server"),
  clientSecretEnv: variable("the client secret", "MCP_CLIENT_SECRET"),
  clientMetadataUrl: address(
    "the https address of hel's client metadata document (not the site's root)",
    "https://example.com/hel-client.json",
    (url) => url.protocol === "https:" && url.pathname !== "/",
  ),
  scopes: (node: Node) => {
    const scopes = (node.children ?? []).map((child) => child.value);
    return node.type === "array" && scopes.length > 0 &&
        scopes.every((scope) => typeof scope === "string" && SCOPE.test(scope))
      ? { value: scopes }
      : 'must be a non-empty list of scope names, e.g. ["mcp:tools"]';
  },
  callbackPort: (node: Node) => {
    const port = node.value;
    return typeof port === "number" && Number.isInteger(port) && port >= 1024 && port <= 65535
      ? { value: port }
      : "must be a port number from 1024 to 65535, the one registered with the client's " +
        "redirect address; leave it out for a free port";
  },
  privateKeyEnv: variable("the client's private key (PEM)", "MCP_PRIVATE_KEY"),
  privateKeyFile: (node: Node) => {
    const value = text(node);
    return value !== undefined && (value.startsWith("/") || value.startsWith("~/")) &&
        !value.includes("\0")
      ? { value }
      : "must be the absolute path (or one starting with ~/) of a PEM private key file, e.g. " +
        '"~/.config/hel/mcp-client.pem"';
  },
  signingAlgorithm: (node: Node) =>
    SIGNING_ALGORITHMS.includes(text(node) ?? "")
      ? { value: text(node) }
      : `must be one of ${SIGNING_ALGORITHMS.join(", ")} (the key's algorithm; default RS256)`,
  idTokenEnv: variable("your ID token from the identity provider", "IDP_ID_TOKEN"),
  idpTokenEndpoint: address(
    "the identity provider's token endpoint, https (or http to this machine)",
    "https://idp.example.com/oauth2/token",
    (url) => url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname)),
  ),
  issuer: address(
    "the issuer URL of the authorization server the client was registered with, https (or " +
      "http to this machine)",
    "https://auth.example.com",
    (url) => url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname)),
  ),
  idpClientId: clientId("the identity provider"),
  idpClientSecretEnv: variable("hel's client secret at the identity provider", "IDP_SECRET"),
} satisfies Record<string, Check>;

/** A field of `"oauth"`. */
export type Field = keyof typeof FIELD_CHECKS;
