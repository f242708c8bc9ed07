/**
 * One token refresh at a time per server, across hel processes. An authorization server that
 * rotates refresh tokens takes each one once: two hel processes refreshing with the same one at
 * once would get one new pair and one refusal, and the refused one would then throw the stored
 * login away. So the refresh request (the SDK's `grant_type=refresh_token` POST, seen in the
 * fetch it is given) is sent while holding a lock on `<login file>.lock`; holding it, hel reads
 * the login file again, and when another process has already stored a newer refresh token, its
 * tokens are answered instead of refreshing a second time. The new tokens are stored before
 * the lock is let go, so the next process finds them.
 *
 * @module
 */
import { withFileLock } from "../../kit/mod.ts";
import type { Fetch } from "./bounded_fetch.ts";
import { loginPath, readLogin, writeLogin } from "./oauth_store.ts";

/** The refresh token a token request sends, if it is a refresh. */
function refreshTokenOf(init: RequestInit | undefined): string | undefined {
  const body = init?.body;
  const params = body instanceof URLSearchParams
    ? body
    : typeof body === "string"
    ? new URLSearchParams(body)
    : undefined;
  if (params?.get("grant_type") !== "refresh_token") return undefined;
  return params.get("refresh_token") ?? undefined;
}

/** Wraps `base` so refreshes of the login of `url` in `helHome` go one at a time (above). */
export function lockedRefresh(base: Fetch, helHome: string, url: string): Fetch {
  return async (input, init) => {
    const sent = refreshTokenOf(init);
    if (sent === undefined) return await base(input, init);
    const lockPath = `${await loginPath(helHome, url)}.lock`;
    return await withFileLock(lockPath, async () => {
      const stored = await readLogin(helHome, url).catch(() => undefined);
      const newer = stored?.tokens;
      if (newer?.refresh_token && newer.refresh_token !== sent) {
        // Another hel refreshed while this one waited: its tokens, and no second refresh.
        // This stands in for the token endpoint's answer, so it leaves out `issuer`: the SDK
        // stamps that on the tokens it stores; an authorization server never sends it.
        const { issuer: _issuer, ...tokens } = newer;
        return Response.json(tokens);
      }
      const response = await base(input, init);
      if (!response.ok || !stored) return response;
      const tokens = await response.json();
      await writeLogin(helHome, { ...stored, tokens: { ...stored.tokens, ...tokens } });
      return Response.json(tokens, { status: response.status });
    });
  };
}
