/**
 * A shared limit on requests per minute toward the model API, for parallel runs.
 *
 * Each run is its own hel process, so a limit inside hel would be per process; the runner
 * instead puts a small forwarding proxy on 127.0.0.1 in front of the endpoint and hands hel the
 * proxy's URL as `--base-url`. Every model request of every run then passes one pacer, which
 * starts requests no closer together than 60 s / limit. The proxy holds no key (hel still sends
 * its own `Authorization` header), forwards only to the endpoint's origin and below its base
 * path, and streams answers through unchanged, so hel behaves as with the endpoint itself.
 *
 * @module
 */

/** Spaces request starts evenly: at most `perMinute` per minute, the first at once. */
export class RequestPacer {
  readonly #interval: number;
  #nextFree = -Infinity;
  #waitedMs = 0;
  #granted = 0;

  constructor(
    perMinute: number,
    private readonly now: () => number = () => performance.now(),
    private readonly sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    if (!(perMinute > 0)) throw new RangeError(`requests per minute ${perMinute} is not > 0`);
    this.#interval = 60_000 / perMinute;
  }

  /** Resolves when the caller may send its request. Slots are handed out in call order. */
  async acquire(): Promise<void> {
    const now = this.now();
    const slot = Math.max(now, this.#nextFree);
    this.#nextFree = slot + this.#interval;
    this.#granted++;
    if (slot > now) {
      this.#waitedMs += slot - now;
      await this.sleep(slot - now);
    }
  }

  /** Requests let through so far and the total time they waited. */
  get stats(): { requests: number; waitedMs: number } {
    return { requests: this.#granted, waitedMs: this.#waitedMs };
  }
}

/** A running proxy; `baseUrl` replaces the endpoint's base URL for hel. */
export interface RateLimitProxy extends AsyncDisposable {
  baseUrl: string;
  pacer: RequestPacer;
}

/** Headers that describe one hop or a body the proxy re-encodes; never forwarded. */
const HOP_HEADERS = [
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
  "content-encoding",
];

function forwardedHeaders(headers: Headers): Headers {
  const copy = new Headers(headers);
  for (const name of HOP_HEADERS) copy.delete(name);
  return copy;
}

/**
 * Starts the proxy in front of `upstreamBase` (e.g. `https://api.deepseek.com` or
 * `http://127.0.0.1:8080/v1`). Its base URL keeps the upstream's path, so hel's requests
 * map one to one.
 */
export function startRateLimitProxy(upstreamBase: string, pacer: RequestPacer): RateLimitProxy {
  const upstream = new URL(upstreamBase);
  const basePath = upstream.pathname.replace(/\/$/, "");
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request, info) => {
      const url = new URL(request.url);
      if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) {
        return Response.json(
          { error: { message: `the eval rate-limit proxy forwards only below ${basePath}/` } },
          { status: 404 },
        );
      }
      // hel gone (interrupted at its time budget): stop the upstream request too.
      const abort = new AbortController();
      info.completed.catch(() => abort.abort());
      await pacer.acquire();
      const target = new URL(url.pathname + url.search, upstream.origin);
      try {
        const answer = await fetch(target, {
          method: request.method,
          headers: forwardedHeaders(request.headers),
          body: request.body === null ? null : await request.arrayBuffer(),
          signal: abort.signal,
          redirect: "manual",
        });
        return new Response(answer.body, {
          status: answer.status,
          statusText: answer.statusText,
          headers: forwardedHeaders(answer.headers),
        });
      } catch (error) {
        // hel reports a 502 as a server error and retries as it would for the endpoint.
        return Response.json(
          { error: { message: `eval rate-limit proxy: ${target.origin}: ${String(error)}` } },
          { status: 502 },
        );
      }
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    pacer,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}
