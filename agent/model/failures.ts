/**
 * Why a model request failed, in the words the person needs: the cause (what went wrong and
 * where) and a hint (what to do), and whether another attempt could help. Network failures
 * arrive as a chain of messages from fetch ("Connection error." ... "Connection refused");
 * HTTP errors as a status and the server's text; a 200 answer that is no API's as its body.
 *
 * @module
 */
import { errorMessage } from "../../core/errors.ts";
import type OpenAI from "openai";
import type { ModelReply } from "../../core/model.ts";

/** The SDK's client class, whose statics are its error classes. */
export type Sdk = typeof OpenAI;

/** What the client needs to word a failure. */
export interface FailureContext {
  /** `--base-url` as given. */
  baseURL: string;
  /** The environment variable the API key came from; undefined when the request carried none. */
  apiKeyName?: string;
}

/** The outcome of one HTTP attempt. */
export interface Attempt {
  reply: ModelReply;
  retryable: boolean;
  /** The cause alone, for a retry line; the reply's error adds the hint. */
  reason?: string;
  retryAfterMs?: number;
  /** The server refused `max_tokens` and asked for `max_completion_tokens` instead. */
  wantsCompletionTokens?: boolean;
}

/** A failed attempt: `cause`, then `hint` when there is one. */
function failed(cause: string, hint: string, retryable: boolean): Attempt {
  return {
    reply: { ok: false, kind: "error", error: hint ? `${cause}; ${hint}` : cause },
    retryable,
    reason: cause,
  };
}

/** The base URL without a user name or password written into it (no secret in a message). */
function shownUrl(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    url.username = "";
    url.password = "";
    return url.href.replace(/\/$/, "");
  } catch {
    return baseURL;
  }
}

/** `--base-url URL`, as {@link shownUrl} shows it. */
function shownBaseUrl(baseURL: string): string {
  return `--base-url ${shownUrl(baseURL)}`;
}

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return baseURL;
  }
}

/** How servers say a request is over the model's context window. */
const CONTEXT_FULL =
  /context[ _]length|context window|maximum context|too many tokens|prompt is too long/i;

/** Turns what the SDK threw into an attempt: interrupted, an HTTP error, or a network failure. */
export function classify(
  sdk: Sdk,
  error: unknown,
  signal: AbortSignal,
  context: FailureContext,
): Attempt {
  if (signal.aborted || error instanceof sdk.APIUserAbortError) {
    return { reply: { ok: false, kind: "interrupted", error: "interrupted" }, retryable: false };
  }
  if (error instanceof sdk.APIError && error.status !== undefined) {
    return httpFailure(error.status, String(error.message), error.headers, context);
  }
  // The SDK's connection error says only "Connection error."; the reason is down its causes.
  const chain = causes(error);
  return networkFailure(chain, context) ??
    failed(`model request failed: ${described(chain)}`, "", true);
}

function httpFailure(
  status: number,
  message: string,
  headers: Headers | undefined,
  context: FailureContext,
): Attempt {
  const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
  const text = `model API returned HTTP ${status}: ${message.slice(0, 500)}`;
  const where = shownBaseUrl(context.baseURL);
  let attempt: Attempt;
  if (status === 401 || status === 403) {
    attempt = context.apiKeyName
      ? failed(
        `the server refused the API key in ${context.apiKeyName} (HTTP ${status}: ` +
          `${message.slice(0, 500)})`,
        `check that the key is right and is one for ${where}`,
        false,
      )
      : failed(
        text,
        "the server wants an API key: put it in HEL_API_KEY, or name its variable in the " +
          "apiKeyEnv setting",
        false,
      );
  } else if (status === 400 && CONTEXT_FULL.test(text)) {
    // A window smaller than hel assumes: say how to make hel compact before it is full.
    attempt = failed(
      text,
      "the conversation is larger than the model's context window: give its size with " +
        "--context-window so hel compacts in time, then continue with --resume",
      false,
    );
  } else if (status === 404) {
    attempt = failed(
      text,
      "check --base-url (OpenAI-compatible servers usually end in /v1) and --model",
      false,
    );
  } else attempt = failed(text, "", retryable);
  const retryAfterMs = retryAfter(headers);
  return {
    ...attempt,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(status === 400 && /max_completion_tokens/.test(text)
      ? { wantsCompletionTokens: true }
      : {}),
  };
}

/**
 * A failure to reach the server named by its cause: nothing listening, a name that does not
 * resolve, a TLS handshake that failed; undefined for the rest (drops, resets). Only a refused
 * connection is worth another try (a local server may be starting): a name or a certificate
 * does not fix itself within the retries' seconds.
 */
function networkFailure(chain: string[], context: FailureContext): Attempt | undefined {
  // The URL fetch quotes could hold any word ("ssl" in a host name): only the reasons count.
  const text = chain.join(": ").replace(/\(\s*https?:\/\/[^)]*\)/g, "");
  const where = shownBaseUrl(context.baseURL);
  const host = hostOf(context.baseURL);
  if (/connection refused|ECONNREFUSED/i.test(text)) {
    return failed(`nothing listens at ${where}`, "is the server running?", true);
  }
  if (/dns error|failed to lookup address|getaddrinfo|ENOTFOUND|name resolution/i.test(text)) {
    return failed(
      `DNS lookup of ${host} failed (${innermost(chain)})`,
      `check the host name in ${where} and your network connection`,
      false,
    );
  }
  if (/certificate|corrupt message|InvalidContentType|\btls\b|ssl|handshake/i.test(text)) {
    const plain = /corrupt message|InvalidContentType|wrong version number/i.test(text);
    return failed(
      `TLS handshake with ${host} failed (${tlsDetail(chain)})`,
      plain
        ? `the server does not speak TLS: if ${where} is a plain HTTP server, write it with http://`
        : `its certificate is not one this machine trusts (${where}); check the host name, or ` +
          "name the certificate authority's file in DENO_CERT",
      false,
    );
  }
  return undefined;
}

/**
 * A 200 answer whose body is not an OpenAI-compatible API's (a web page, a proxy's login, a
 * wrong path): no retry makes it one. `notJson`: the body did not parse.
 */
export function notAnApi(
  contentType: string | null,
  context: FailureContext,
  notJson = false,
): Attempt {
  const type = contentType?.split(";")[0]?.trim() || "no content type";
  // "got application/json" alone would read as if the body were JSON.
  const got = notJson && /json/i.test(type) ? `text that is not JSON, sent as ${type}` : type;
  const url = shownUrl(context.baseURL);
  return failed(
    `the server at ${url} did not answer as an OpenAI-compatible API (got ${got})`,
    /\/v\d+$/.test(url)
      ? "check that --base-url is the API's address, not a web page's"
      : "check --base-url (OpenAI-compatible servers usually end in /v1)",
    false,
  );
}

/** True for a content type no Chat Completions answer has: a page, not data. */
export function pageContentType(contentType: string | null): boolean {
  return /^\s*(text\/html|application\/xhtml\+xml|text\/xml|application\/xml)\b/i.test(
    contentType ?? "",
  );
}

/** An error's message followed by its causes' messages, each once. */
function causes(error: unknown): string[] {
  const messages: string[] = [];
  for (let at: unknown = error; at !== undefined && messages.length < 5;) {
    const message = errorMessage(at);
    if (message && !messages.includes(message)) messages.push(message);
    at = at instanceof Error ? at.cause : undefined;
  }
  return messages;
}

/** "Connection error. (fetch failed: Connection refused (os error 111))". */
function described(chain: string[]): string {
  const [first, ...rest] = chain;
  return rest.length > 0 ? `${first} (${rest.join(": ")})` : first ?? "unknown error";
}

/** The innermost reason: "Name or service not known" from fetch's long chain. */
function innermost(chain: string[]): string {
  return (chain.at(-1) ?? "").split(": ").at(-1) ?? "";
}

/**
 * The TLS part of fetch's message: "error sending request for url (...): client error
 * (Connect): invalid peer certificate: UnknownIssuer" gives "invalid peer certificate:
 * UnknownIssuer". The first part is the URL, whatever its words.
 */
function tlsDetail(chain: string[]): string {
  const parts = (chain.at(-1) ?? "").split(": ");
  const from = parts.findIndex((part, index) =>
    index > 0 && /certificate|corrupt|tls|ssl|handshake|version/i.test(part)
  );
  return from >= 0 ? parts.slice(from).join(": ") : innermost(chain);
}

function retryAfter(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get("retry-after-ms"));
  if (Number.isFinite(ms) && ms >= 0 && headers?.has("retry-after-ms")) return ms;
  const seconds = Number(headers?.get("retry-after"));
  if (Number.isFinite(seconds) && seconds >= 0 && headers?.has("retry-after")) {
    return seconds * 1000;
  }
  return undefined;
}
