import assert from "node:assert/strict";
import { lockedRefresh } from "./oauth_refresh_lock.ts";
import { readLogin, writeLogin } from "./oauth_store.ts";

const URL = "https://mcp.example.com/mcp";
const TOKEN_ENDPOINT = "https://auth.example.com/token";

/**
 * An authorization server that rotates refresh tokens and takes each one once, as many do; it
 * answers slowly, so two refreshes started together overlap.
 */
function rotatingServer() {
  let current = "R1";
  let turn = 1;
  const refreshes: string[] = [];
  const fetchFn = async (_url: string | URL, init?: RequestInit) => {
    const params = new URLSearchParams(String(init?.body));
    const sent = params.get("refresh_token") ?? "";
    refreshes.push(sent);
    await new Promise((resolve) => setTimeout(resolve, 150));
    if (sent !== current) {
      return Response.json({ error: "invalid_grant" }, { status: 400 });
    }
    turn++;
    current = `R${turn}`;
    return Response.json({
      access_token: `A${turn}`,
      token_type: "Bearer",
      refresh_token: current,
    });
  };
  return { fetchFn, refreshes };
}

const refresh = (token: string) => ({
  method: "POST",
  body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token }),
});

Deno.test("two processes refreshing the same login at once: one refresh, both get its tokens", async () => {
  const helHome = await Deno.makeTempDir();
  try {
    await writeLogin(helHome, {
      url: URL,
      tokens: { access_token: "A1", token_type: "Bearer", refresh_token: "R1" },
    });
    const server = rotatingServer();
    // Two wrappers: two hel processes, each with its own lock file handle.
    const first = lockedRefresh(server.fetchFn, helHome, URL);
    const second = lockedRefresh(server.fetchFn, helHome, URL);
    const answers = await Promise.all([
      first(TOKEN_ENDPOINT, refresh("R1")),
      second(TOKEN_ENDPOINT, refresh("R1")),
    ]);
    assert.deepEqual(answers.map((answer) => answer.status), [200, 200]);
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    assert.deepEqual(bodies.map((body) => body.refresh_token), ["R2", "R2"]);
    assert.deepEqual(server.refreshes, ["R1"], "the authorization server saw one refresh");
    assert.equal((await readLogin(helHome, URL))?.tokens?.refresh_token, "R2");
  } finally {
    await Deno.remove(helHome, { recursive: true });
  }
});

Deno.test("requests that are not refreshes pass through without a lock or a read", async () => {
  const seen: string[] = [];
  const fetchFn = (url: string | URL) => {
    seen.push(String(url));
    return Promise.resolve(new Response("{}"));
  };
  // A HEL_HOME that does not exist: a refresh would need it, nothing else does.
  const guarded = lockedRefresh(fetchFn, "/nonexistent/hel-home", URL);
  await guarded(TOKEN_ENDPOINT, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "authorization_code", code: "c" }),
  });
  await guarded(URL, { method: "POST", body: "{}" });
  assert.deepEqual(seen, [TOKEN_ENDPOINT, URL]);
});
