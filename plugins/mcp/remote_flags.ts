/**
 * The command-line form of a remote entry: `--transport http|sse`, `--header-env NAME=VAR`
 * (repeatable), `--bearer-token-env VAR`, and the entry's `"oauth"` fields as flags of their
 * own (`--client-id ID`, `--client-secret-env VAR`, `--grant client_credentials`, ... : see
 * {@link OAUTH_FLAGS}), for `hel mcp add --transport http NAME URL` and for
 * `hel mcp list --url URL` / `hel mcp call --url URL ...` (a server given on the command line:
 * the person typed it, so there is no trust question). The entry goes through the loader's own
 * validation (config.ts), so a flag can say nothing a file could not.
 *
 * @module
 */
import { parseMcpConfig, type ServerConfig } from "./config.ts";
import type { OAuthSettings } from "./oauth_config.ts";

/** Each `"oauth"` field a flag fills: the field (and the flags' key), the flag, what it is. */
export const OAUTH_FLAGS = [
  ["clientId", "--client-id", "OAuth: the client registered for hel at its server"],
  ["clientSecretEnv", "--client-secret-env", "OAuth: that client's secret, from variable VAR"],
  [
    "clientMetadataUrl",
    "--client-metadata-url",
    "OAuth: hel's client ID metadata document (https)",
  ],
  [
    "issuer",
    "--issuer",
    "OAuth: the client's authorization server; its credentials go nowhere else",
  ],
  ["grant", "--grant", "OAuth: client_credentials or cross_app_access (no browser login)"],
  ["privateKeyEnv", "--private-key-env", "client_credentials: the PEM private key, from VAR"],
  ["privateKeyFile", "--private-key-file", "client_credentials: the PEM private key's file"],
  ["signingAlgorithm", "--signing-algorithm", "client_credentials: the key's algorithm (RS256)"],
  ["idTokenEnv", "--id-token-env", "cross_app_access: your identity provider's ID token, from VAR"],
  [
    "idpTokenEndpoint",
    "--idp-token-endpoint",
    "cross_app_access: the identity provider's token URL",
  ],
  ["idpClientId", "--idp-client-id", "cross_app_access: hel's client at the identity provider"],
  ["idpClientSecretEnv", "--idp-client-secret-env", "cross_app_access: its secret, from VAR"],
] as const satisfies readonly (readonly [keyof OAuthSettings, string, string])[];

/** The flags as typed: each of {@link OAUTH_FLAGS} under its field's name, as a string. */
export interface RemoteFlags extends Partial<Record<(typeof OAUTH_FLAGS)[number][0], string>> {
  transport?: string;
  headerEnv: string[];
  bearerTokenEnv?: string;
}

/** True when any `"oauth"` flag was given. */
export function hasOAuthFlags(flags: RemoteFlags): boolean {
  return OAUTH_FLAGS.some(([field]) => flags[field] !== undefined);
}

/** The name a server given with `--url` goes by (its tools are `mcp__url__<tool>`). */
export const URL_SERVER_NAME = "url";

/** The entry the flags describe, or what is wrong with a `--header-env` word. */
export function remoteEntry(url: string, flags: RemoteFlags): Record<string, unknown> | string {
  const entry: Record<string, unknown> = { url };
  if (flags.transport !== undefined) entry.transport = flags.transport;
  if (flags.bearerTokenEnv !== undefined) entry.bearerTokenEnv = flags.bearerTokenEnv;
  const headers: Record<string, { env: string }> = {};
  for (const word of flags.headerEnv) {
    const cut = word.indexOf("=");
    if (cut <= 0 || cut === word.length - 1) {
      return `--header-env ${word}: write HEADER=VARIABLE, e.g. --header-env X-Api-Key=MY_API_KEY ` +
        "(the header gets the value of your variable)";
    }
    headers[word.slice(0, cut)] = { env: word.slice(cut + 1) };
  }
  if (Object.keys(headers).length > 0) entry.headers = headers;
  const oauth: Record<string, string> = {};
  for (const [field] of OAUTH_FLAGS) {
    if (flags[field] !== undefined) oauth[field] = flags[field];
  }
  if (Object.keys(oauth).length > 0) entry.oauth = oauth;
  return entry;
}

/** Rewrites the loader's field names as the flags that filled them. */
export function flagWording(problem: string, field: string): string {
  let text = problem
    .replaceAll(`${field}.oauth: `, "")
    .replaceAll(`${field}.oauth has both`, "you gave both")
    .replace(/"grant": "(\w+)"/g, "--grant $1")
    .replaceAll(`${field}.url`, "the URL")
    .replaceAll(`${field}.transport`, "--transport")
    .replaceAll(`${field}.bearerTokenEnv`, "--bearer-token-env");
  // Longest names first: "clientId" is the start of no other field, but be safe anyway.
  const byLength = [...OAUTH_FLAGS].sort((a, b) => b[0].length - a[0].length);
  for (const [name, flag] of byLength) {
    text = text.replaceAll(`${field}.oauth.${name}`, flag).replaceAll(`"${name}"`, flag);
  }
  return text
    .replaceAll(`${field}.oauth`, "the OAuth flags")
    .replaceAll(`${field}.headers.`, "--header-env ")
    .replaceAll(`${field}.headers`, "--header-env");
}

/** How messages name where a `--url` server came from (its `file`). */
const COMMAND_LINE = "the command line";

/** True for the server `--url` gave (urlServer), whose settings the person typed as flags. */
export function fromCommandLine(config: ServerConfig): boolean {
  return config.name === URL_SERVER_NAME && config.file === COMMAND_LINE;
}

/** The server `--url` names, validated like a file's entry; or the problems, one a line. */
export function urlServer(url: string, flags: RemoteFlags): ServerConfig | string {
  const entry = remoteEntry(url, flags);
  if (typeof entry === "string") return entry;
  const text = JSON.stringify({ servers: { [URL_SERVER_NAME]: entry } });
  const parsed = parseMcpConfig(new TextEncoder().encode(text), COMMAND_LINE);
  if (parsed.ok) return parsed.servers[0]!;
  const field = `servers.${JSON.stringify(URL_SERVER_NAME)}`;
  return parsed.problems.map((problem) =>
    flagWording(problem.replace(/^the command line:\d+:\d+: /, ""), field)
  ).join("; ");
}
