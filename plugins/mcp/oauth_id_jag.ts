/**
 * The first half of cross-app access (SEP-990, enterprise-managed authorization): the person's
 * ID token from the company's identity provider is exchanged there (RFC 8693 token exchange)
 * for an Identity Assertion JWT Authorization Grant (ID-JAG) bound to one authorization server
 * (`audience`) and one MCP server (`resource`). oauth_machine.ts hands the grant to the SDK,
 * which takes it to that authorization server (the jwt-bearer grant, RFC 7523). The MCP SDK
 * this hel pins (1.32.2) has no helper for this step, so it is written here.
 *
 * The ID token goes only to the endpoint the entry names: redirects are not followed (one
 * would resend it elsewhere), and the answer's size is bounded by the fetch given.
 *
 * @module
 */
import type { Fetch } from "./bounded_fetch.ts";

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";
/** How long the identity provider may take. */
const EXCHANGE_MS = 30_000;

/** What the exchange needs. */
export interface IdJagRequest {
  tokenEndpoint: string;
  idToken: string;
  /** hel's client at the identity provider, and its secret if it has one. */
  clientId: string;
  clientSecret?: string;
  /** The authorization server's issuer. */
  audience: string;
  /** The MCP server's resource identifier. */
  resource: string;
  scope?: string;
  fetchFn: Fetch;
}

/** Exchanges the ID token for an ID-JAG; throws an Error saying what the provider answered. */
export async function requestIdJag(request: IdJagRequest): Promise<string> {
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE,
    requested_token_type: ID_JAG,
    audience: request.audience,
    resource: request.resource,
    subject_token: request.idToken,
    subject_token_type: ID_TOKEN,
    client_id: request.clientId,
  });
  if (request.clientSecret) body.set("client_secret", request.clientSecret);
  if (request.scope) body.set("scope", request.scope);
  const where = `the identity provider's token endpoint (${request.tokenEndpoint})`;
  const response = await request.fetchFn(request.tokenEndpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(EXCHANGE_MS),
  });
  let answer: Record<string, unknown> = {};
  try {
    answer = await response.json();
  } catch {
    // Not JSON: said below by the status, or as no grant.
  }
  if (!response.ok) {
    const error = typeof answer.error === "string" ? answer.error.slice(0, 100) : "";
    const description = typeof answer.error_description === "string"
      ? `: ${answer.error_description.slice(0, 300)}`
      : "";
    throw new Error(
      `${where} refused to exchange your ID token (HTTP ${response.status}` +
        `${error ? ` ${error}` : ""}${description}); check idTokenEnv (it may have expired) ` +
        "and idpClientId",
    );
  }
  const grant = answer.access_token;
  if (typeof grant !== "string" || grant === "" || answer.issued_token_type !== ID_JAG) {
    throw new Error(`${where} answered without an ID-JAG (issued_token_type ${ID_JAG})`);
  }
  return grant;
}
