/**
 * The command-line form of a remote entry: `--transport http|sse`, `--header-env NAME=VAR`
 * (repeatable), `--bearer-token-env VAR`, and for OAuth a client registered beforehand
 * (`--client-id ID`, `--client-secret-env VAR`: the entry's `oauth.clientId` and
 * `oauth.clientSecretEnv`), for `hel mcp add --transport http NAME URL` and for
 * `hel mcp list --url URL` / `hel mcp call --url URL ...` (a server given on the command line:
 * the person typed it, so there is no trust question). The entry goes through the loader's own
 * validation (config.ts), so a flag can say nothing a file could not.
 *
 * @module
 */
import { parseMcpConfig, type ServerConfig } from "./config.ts";

/** The flags as typed. */
export interface RemoteFlags {
  transport?: string;
  headerEnv: string[];
  bearerTokenEnv?: string;
  clientId?: string;
  clientSecretEnv?: string;
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
  if (flags.clientId !== undefined) oauth.clientId = flags.clientId;
  if (flags.clientSecretEnv !== undefined) oauth.clientSecretEnv = flags.clientSecretEnv;
  if (Object.keys(oauth).length > 0) entry.oauth = oauth;
  return entry;
}

/** Rewrites the loader's field names as the flags that filled them. */
export function flagWording(problem: string, field: string): string {
  return problem
    .replaceAll(`${field}.url`, "the URL")
    .replaceAll(`${field}.transport`, "--transport")
    .replaceAll(`${field}.bearerTokenEnv`, "--bearer-token-env")
    .replaceAll(
      `${field}.oauth.clientSecretEnv needs ${field}.oauth.clientId`,
      "--client-secret-env needs --client-id",
    )
    .replaceAll(`${field}.oauth.clientId`, "--client-id")
    .replaceAll(`${field}.oauth.clientSecretEnv`, "--client-secret-env")
    .replaceAll(`${field}.headers.`, "--header-env ")
    .replaceAll(`${field}.headers`, "--header-env");
}

/** The server `--url` names, validated like a file's entry; or the problems, one a line. */
export function urlServer(url: string, flags: RemoteFlags): ServerConfig | string {
  const entry = remoteEntry(url, flags);
  if (typeof entry === "string") return entry;
  const text = JSON.stringify({ servers: { [URL_SERVER_NAME]: entry } });
  const parsed = parseMcpConfig(new TextEncoder().encode(text), "the command line");
  if (parsed.ok) return parsed.servers[0]!;
  const field = `servers.${JSON.stringify(URL_SERVER_NAME)}`;
  return parsed.problems.map((problem) =>
    flagWording(problem.replace(/^the command line:\d+:\d+: /, ""), field)
  ).join("; ");
}
