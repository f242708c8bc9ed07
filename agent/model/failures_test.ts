/**
 * The causes and hints of the failures a person meets first, through the real client against
 * real sockets: nothing listening, a web page instead of an API, a name that does not resolve,
 * https to a plain HTTP server, a refused key.
 */
import assert from "node:assert/strict";
import { createOpenAIClient, type OpenAIClientOptions } from "./openai_client.ts";

/** One completion against `baseURL`; the retries it made, by their reason. */
async function attempt(baseURL: string, options: Partial<OpenAIClientOptions> = {}) {
  const retries: string[] = [];
  const client = createOpenAIClient({
    baseURL,
    apiKey: "k",
    model: "m",
    stream: false,
    requestTimeoutMs: 5_000,
    maxRetries: 2,
    totalTimeoutMs: 10_000,
    backoffMs: 5,
    onRetry: (_attempt, _delay, reason) => retries.push(reason),
    ...options,
  });
  const reply = await client.complete(
    { messages: [{ role: "user", content: "hi" }], tools: [], purpose: "conversation" },
    { signal: new AbortController().signal },
  );
  assert.equal(reply.ok, false);
  return { error: reply.ok ? "" : reply.error, retries };
}

/** A port nothing listens on. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** A server answering every request with `body` as `type`, HTTP 200. */
function serving(body: string, type: string) {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(body, { headers: { "content-type": type } }),
  );
}

Deno.test("a refused connection: nothing listens at the URL; retried, the cause alone each time", async () => {
  const url = `http://127.0.0.1:${closedPort()}/v1`;
  for (const stream of [false, true]) {
    const { error, retries } = await attempt(url, { stream });
    assert.equal(
      error,
      `nothing listens at --base-url ${url}; is the server running? (gave up after 3 attempts)`,
    );
    assert.deepEqual(retries, Array(2).fill(`nothing listens at --base-url ${url}`));
  }
});

Deno.test("a web page with HTTP 200 is not an OpenAI-compatible API; not retried", async () => {
  await using server = serving("<!doctype html><title>Welcome</title>", "text/html; charset=utf-8");
  const url = `http://127.0.0.1:${server.addr.port}`;
  for (const stream of [false, true]) {
    const { error, retries } = await attempt(url, { stream });
    assert.equal(
      error,
      `the server at ${url} did not answer as an OpenAI-compatible API (got text/html); ` +
        "check --base-url (OpenAI-compatible servers usually end in /v1)",
    );
    assert.deepEqual(retries, []);
  }
});

Deno.test("a 200 body that is not JSON names what came instead", async () => {
  await using text = serving("It works!", "text/plain");
  const plain = `http://127.0.0.1:${text.addr.port}/v1`;
  for (const stream of [false, true]) {
    const { error, retries } = await attempt(plain, { stream });
    assert.equal(
      error,
      `the server at ${plain} did not answer as an OpenAI-compatible API (got text/plain); ` +
        "check that --base-url is the API's address, not a web page's",
    );
    assert.deepEqual(retries, []);
  }
  await using mislabelled = serving("Service Unavailable", "application/json");
  const json = `http://127.0.0.1:${mislabelled.addr.port}/v1`;
  const { error } = await attempt(json);
  assert.match(error, /\(got text that is not JSON, sent as application\/json\)/);
});

Deno.test("a JSON body cut short is retried: the next attempt may be whole", async () => {
  await using server = serving('{"id": "cut', "application/json");
  const { error, retries } = await attempt(`http://127.0.0.1:${server.addr.port}/v1`);
  assert.match(error, /^model response is not valid JSON \(.+\) \(gave up after 3 attempts\)$/);
  assert.equal(retries.length, 2);
});

Deno.test("a host name that does not resolve is a DNS failure; not retried", async () => {
  const { error, retries } = await attempt("http://nonexistent.invalid/v1");
  assert.match(
    error,
    /^DNS lookup of nonexistent\.invalid failed \([^)]+\); check the host name in --base-url http:\/\/nonexistent\.invalid\/v1 and your network connection$/,
  );
  assert.deepEqual(retries, []);
});

Deno.test("https to a plain HTTP server is a TLS failure with the fix; not retried", async () => {
  await using server = serving("{}", "application/json");
  const url = `https://127.0.0.1:${server.addr.port}/v1`;
  const { error, retries } = await attempt(url);
  assert.equal(
    error,
    `TLS handshake with 127.0.0.1:${server.addr.port} failed (received corrupt message of ` +
      `type InvalidContentType); the server does not speak TLS: if --base-url ${url} is a ` +
      "plain HTTP server, write it with http://",
  );
  assert.deepEqual(retries, []);
});

Deno.test("HTTP 401 and 403 name the variable the key came from; a user name in the URL is not shown", async () => {
  for (const status of [401, 403]) {
    await using server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () => Response.json({ error: { message: "Invalid API key" } }, { status }),
    );
    const url = `http://me:secret@127.0.0.1:${server.addr.port}/v1`;
    const { error, retries } = await attempt(url, { apiKeyName: "MY_KEY" });
    assert.equal(
      error,
      `the server refused the API key in MY_KEY (HTTP ${status}: ${status} Invalid API key); ` +
        `check that the key is right and is one for --base-url http://127.0.0.1:${server.addr.port}/v1`,
    );
    assert.deepEqual(retries, []);
    // No variable named: the request carried no key (a local server without one).
    const keyless = await attempt(url);
    assert.equal(
      keyless.error,
      `model API returned HTTP ${status}: ${status} Invalid API key; the server wants an API ` +
        "key: put it in HEL_API_KEY, or name its variable in the apiKeyEnv setting",
    );
  }
});
