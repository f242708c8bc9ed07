/**
 * A remote entry's `"oauth"` field: how hel gets a token for a server. Three grants:
 *
 * - `"authorization_code"` (the default): `hel mcp login` and the person's browser. The client
 *   is registered dynamically, or given (`clientId`, its secret by `clientSecretEnv`), or is a
 *   client ID metadata document (`clientMetadataUrl`, an https address the authorization server
 *   fetches: SEP-991); `scopes` and `callbackPort` tune it.
 * - `"client_credentials"`: no person; hel asks the token endpoint itself when it connects,
 *   as `clientId` with a secret (`clientSecretEnv`) or a private key (`privateKeyEnv` or
 *   `privateKeyFile`, signing a JWT with `signingAlgorithm`, `private_key_jwt`).
 * - `"cross_app_access"` (SEP-990, enterprise-managed authorization): the person's ID token
 *   from the company's identity provider (`idTokenEnv`) is exchanged there
 *   (`idpTokenEndpoint`, as `idpClientId`) for an ID-JAG, which the server's authorization
 *   server takes for a token from `clientId` (`clientSecretEnv`).
 *
 * A secret is never written in the file, only the name of the variable (or the path of the
 * file) it comes from, as for headers. The checks of each field are in oauth_fields.ts.
 *
 * @module
 */
import type { Node } from "jsonc-parser";
import { type Field, FIELD_CHECKS, GRANTS, type OAuthGrant } from "./oauth_fields.ts";
import { projectOAuthProblem } from "./oauth_project_rule.ts";

export type { OAuthGrant };

/** What the entry says about getting a token. */
export interface OAuthSettings {
  /** How the token is got; absent: `"authorization_code"` (`hel mcp login`). */
  grant?: OAuthGrant;
  /** A client registered beforehand with the authorization server. */
  clientId?: string;
  /** The variable holding that client's secret (a confidential client). */
  clientSecretEnv?: string;
  /** An https address of hel's client metadata document, used as the client ID (SEP-991). */
  clientMetadataUrl?: string;
  /**
   * The authorization server the client belongs to: its credentials are sent nowhere else
   * (without it, to the one they were first used with).
   */
  issuer?: string;
  /** Scopes to ask for, instead of those the server advertises. */
  scopes?: string[];
  /** The loopback port of the redirect, for a client registered with a fixed one. */
  callbackPort?: number;
  /** client_credentials with private_key_jwt: the variable or file holding the PEM key. */
  privateKeyEnv?: string;
  privateKeyFile?: string;
  /** The JWS algorithm of that key (default RS256). */
  signingAlgorithm?: string;
  /** cross_app_access: the variable holding the identity provider's ID token. */
  idTokenEnv?: string;
  /** cross_app_access: where the identity provider exchanges it (RFC 8693). */
  idpTokenEndpoint?: string;
  /** cross_app_access: hel's client at the identity provider, and its secret's variable. */
  idpClientId?: string;
  idpClientSecretEnv?: string;
}

const FIELDS = Object.keys(FIELD_CHECKS) as Field[];
const EXAMPLE = '{"clientId": "hel-cli", "scopes": ["mcp:tools"]}';

/** The fields each grant may have (besides `grant`); `need` ones it must have. */
const ALLOWED: Record<OAuthGrant, { may: Field[]; need: Field[] }> = {
  authorization_code: {
    may: ["clientId", "clientSecretEnv", "issuer", "clientMetadataUrl", "scopes", "callbackPort"],
    need: [],
  },
  client_credentials: {
    may: [
      "clientId",
      "clientSecretEnv",
      "privateKeyEnv",
      "privateKeyFile",
      "signingAlgorithm",
      "issuer",
      "scopes",
    ],
    need: ["clientId"],
  },
  cross_app_access: {
    may: [
      "clientId",
      "clientSecretEnv",
      "issuer",
      "scopes",
      "idTokenEnv",
      "idpTokenEndpoint",
      "idpClientId",
      "idpClientSecretEnv",
    ],
    need: ["clientId", "clientSecretEnv", "idTokenEnv", "idpTokenEndpoint", "idpClientId"],
  },
};

type Report = (at: Node, message: string) => void;

/**
 * Reads `oauth`; `properties` lists an object's pairs (each name once). In a project's file
 * (`project`) the person's own credentials are limited (oauth_project_rule.ts).
 */
export function readOAuth(
  here: string,
  value: Node,
  report: Report,
  properties: (node: Node) => { name: string; key: Node; value: Node }[],
  project = false,
): OAuthSettings | undefined {
  if (value.type !== "object") {
    report(value, `${here} must be an object, e.g. ${EXAMPLE}`);
    return undefined;
  }
  const settings: Record<string, unknown> = {};
  let bad = false;
  const fail = (at: Node, message: string) => {
    bad = true;
    report(at, message);
  };
  const pairs = properties(value);
  if (pairs.length === 0) fail(value, `${here} is empty; leave it out, or write e.g. ${EXAMPLE}`);
  for (const { name, key, value: setting } of pairs) {
    const check = FIELD_CHECKS[name as Field];
    if (!check) {
      fail(key, `unknown field ${here}.${name}; allowed: ${FIELDS.join(", ")}`);
      continue;
    }
    const read = check(setting);
    if (typeof read === "string") fail(setting, `${here}.${name} ${read}`);
    else settings[name] = read.value;
  }
  if (bad) return undefined;
  const result = settings as OAuthSettings;
  const problem = combination(result, here);
  if (problem) {
    report(value, problem);
    return undefined;
  }
  const refused = project ? projectOAuthProblem(result, here) : undefined;
  if (refused) {
    report(pairs.find((pair) => pair.name === refused.field)!.key, refused.message);
    return undefined;
  }
  return result;
}

/** What is wrong with the fields together, if anything. */
function combination(settings: OAuthSettings, here: string): string | undefined {
  const grant = settings.grant ?? "authorization_code";
  const { may, need } = ALLOWED[grant];
  const given = Object.keys(settings).filter((name) => name !== "grant") as Field[];
  const stray = given.filter((name) => !may.includes(name));
  const grantText = settings.grant ? `"grant": "${grant}"` : 'a browser login (no "grant")';
  if (stray.length > 0) {
    const owner = stray.map((name) =>
      GRANTS.find((other) => ALLOWED[other].may.includes(name)) ?? grant
    );
    return `${here}: ${stray.map((name) => `"${name}"`).join(", ")} ` +
      `${stray.length === 1 ? "does" : "do"} not go with ${grantText}` +
      ` (${stray.length === 1 ? "it is" : "they are"} for "grant": "${owner[0]}"); leave ` +
      `${stray.length === 1 ? "it" : "them"} out or change "grant"`;
  }
  const missing = need.filter((name) => settings[name] === undefined);
  if (missing.length > 0) {
    return `${here}: ${grantText} needs ${missing.map((name) => `"${name}"`).join(", ")}`;
  }
  if (settings.clientSecretEnv && !settings.clientId) {
    return `${here}.clientSecretEnv needs ${here}.clientId, the client it is the secret of`;
  }
  if (settings.issuer && !settings.clientId) {
    return `${here}.issuer needs ${here}.clientId, the client registered there`;
  }
  if (settings.clientMetadataUrl && settings.clientId) {
    return `${here} has both "clientId" and "clientMetadataUrl"; a metadata document's address ` +
      "is the client ID, so give one of them";
  }
  if (grant === "client_credentials") {
    const ways = ["clientSecretEnv", "privateKeyEnv", "privateKeyFile"] as const;
    const count = ways.filter((name) => settings[name] !== undefined).length;
    if (count !== 1) {
      return `${here}: "grant": "client_credentials" needs one way for the client to prove ` +
        `itself: "clientSecretEnv" (a secret), or "privateKeyEnv" or "privateKeyFile" (a key)` +
        (count > 1 ? `, not ${count}` : "");
    }
  }
  if (settings.signingAlgorithm && !settings.privateKeyEnv && !settings.privateKeyFile) {
    return `${here}.signingAlgorithm goes with "privateKeyEnv" or "privateKeyFile"`;
  }
  return undefined;
}
