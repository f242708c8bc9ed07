/**
 * The loopback redirect of `hel mcp login`: an HTTP listener on 127.0.0.1 (a free port, or the
 * entry's `oauth.callbackPort`) that waits for the one request the authorization server sends
 * the browser back with. It takes only `/callback`; the `state` must be the one hel sent (a page
 * that sends your browser there with another state is refused, so no one can slip their own
 * authorization code in); the first such request ends it either way, and the listener closes.
 *
 * @module
 */

/** What the redirect brought: a code, or why there is none. */
export type CallbackResult = { ok: true; code: string } | { ok: false; reason: string };

/** A listening redirect. */
export interface Callback {
  /** The redirect address (`http://127.0.0.1:<port>/callback`). */
  url: string;
  /** Waits for the redirect; `state` is read when it comes (it is made once the flow starts). */
  result(state: () => string | undefined, timeoutMs: number): Promise<CallbackResult>;
  close(): Promise<void>;
}

const PAGE = (text: string) =>
  new Response(
    `<!doctype html><meta charset="utf-8"><title>hel</title><p>${text}</p>`,
    { headers: { "content-type": "text/html; charset=utf-8" } },
  );

/** Starts listening on 127.0.0.1 (`port` 0: a free one). */
export function listenForCallback(port = 0): Callback {
  let deliver: (request: Request) => Response = () => new Response("not ready", { status: 503 });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port, onListen() {} },
    (request) => deliver(request),
  );
  const url = `http://127.0.0.1:${server.addr.port}/callback`;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await server.shutdown();
  };
  return {
    url,
    close,
    result(state, timeoutMs) {
      return new Promise<CallbackResult>((resolve) => {
        const timer = setTimeout(() => {
          resolve({ ok: false, reason: `no answer came back in ${timeoutMs / 1000} s` });
        }, timeoutMs);
        const done = (result: CallbackResult, page: Response) => {
          clearTimeout(timer);
          resolve(result);
          deliver = () => new Response("hel's login is over", { status: 410 });
          return page;
        };
        deliver = (request) => {
          const address = new URL(request.url);
          if (request.method !== "GET" || address.pathname !== "/callback") {
            return new Response("not found", { status: 404 });
          }
          const params = address.searchParams;
          const sent = state();
          if (!sent || params.get("state") !== sent) {
            return done(
              {
                ok: false,
                reason: "the redirect came back with another state than hel sent, so its code " +
                  "was not used (it may not come from your login); run hel mcp login again",
              },
              PAGE("hel refused this login: the state did not match. Close this tab."),
            );
          }
          const error = params.get("error");
          if (error) {
            const description = params.get("error_description");
            return done(
              {
                ok: false,
                reason: `the authorization server answered ${error.slice(0, 100)}` +
                  (description ? `: ${description.slice(0, 300)}` : ""),
              },
              PAGE("hel's login did not succeed; see the terminal. You can close this tab."),
            );
          }
          const code = params.get("code");
          if (!code) {
            return done(
              { ok: false, reason: "the redirect came back without an authorization code" },
              PAGE("hel's login did not succeed; see the terminal. You can close this tab."),
            );
          }
          return done({ ok: true, code }, PAGE("hel is logged in. You can close this tab."));
        };
      });
    },
  };
}
