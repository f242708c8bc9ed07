/**
 * The `fetch` hel gives the SDK's HTTP transports: every answer's body is bounded, as a stdio
 * server's lines are (transport.ts), so a hostile server cannot make hel buffer 100 MB. A JSON
 * answer may be at most the bound in all; an event stream (`text/event-stream`) may carry any
 * number of events, each at most the bound (counted from the blank line that ends the last).
 *
 * @module
 */

/** The fetch the SDK's transports take (`FetchLike`). */
export type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Statuses whose response has no body and must not be given one. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Wraps `base` (the global fetch) so that a body over `maxBytes` (one event of a stream over it)
 * errors its stream; `onOversize` is told once, to say why the connection was dropped.
 */
export function boundedFetch(maxBytes: number, onOversize: () => void, base: Fetch = fetch): Fetch {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body || NO_BODY.has(response.status)) return response;
    const events = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    const body = response.body.pipeThrough(limiter(maxBytes, events, onOversize));
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function limiter(
  maxBytes: number,
  events: boolean,
  onOversize: () => void,
): TransformStream<Uint8Array, Uint8Array> {
  let count = 0;
  /** The last byte seen was a line feed (a CR before it does not count): `\n\n` ends an event. */
  let afterLineFeed = false;
  return new TransformStream({
    transform(chunk, controller) {
      if (!events) count += chunk.length;
      else {
        for (let index = 0; index < chunk.length; index++) {
          const byte = chunk[index];
          if (byte === 10) {
            if (afterLineFeed) count = 0;
            afterLineFeed = true;
          } else if (byte !== 13) {
            afterLineFeed = false;
            count++;
          }
        }
      }
      if (count > maxBytes) {
        onOversize();
        controller.error(new Error(`the server sent a message over ${maxBytes} bytes`));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}
