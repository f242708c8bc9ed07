import assert from "node:assert/strict";
import { parseMcpConfig } from "./config.ts";
import { loginState, loginText } from "./login_state.ts";
import { shownOAuth } from "./oauth_shown.ts";
import { writeLogin } from "./oauth_store.ts";
import { summarizeServers } from "./summary.ts";

const URL_ = "https://mcp.example.com/mcp";

function server(entry: Record<string, unknown>) {
  const parsed = parseMcpConfig(
    new TextEncoder().encode(JSON.stringify({ servers: { s: { url: URL_, ...entry } } })),
    ".hel/mcp.json",
  );
  if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
  return parsed.servers[0]!;
}

Deno.test("the login state comes from the token store: none, logged in, expired, step-up", async () => {
  const home = await Deno.makeTempDir();
  try {
    const plain = server({});
    assert.deepEqual(await loginState(home, plain), { state: "none" });
    assert.deepEqual(await loginState(home, server({ oauth: { clientId: "c" } })), {
      state: "needs-login",
    });
    assert.deepEqual(await loginState(home, server({ bearerTokenEnv: "T" })), {
      state: "not-used",
    });
    await writeLogin(home, {
      url: URL_,
      tokens: { access_token: "a", token_type: "Bearer", expires_in: 60, refresh_token: "r" },
    });
    const now = Date.now();
    const fresh = await loginState(home, plain, now);
    assert.equal(fresh?.state, "logged-in");
    assert.match(loginText(fresh!, plain), /^logged in since .* UTC, token valid until .* UTC$/);
    const later = await loginState(home, plain, now + 120_000);
    assert.deepEqual(later?.state === "expired" && later.refreshable, true);
    await writeLogin(home, { url: URL_, tokens: { access_token: "a", token_type: "Bearer" } });
    assert.equal((await loginState(home, plain, now + 10 ** 9))?.state, "logged-in");
    await writeLogin(home, { url: URL_, wantedScope: "repo" });
    assert.equal(
      loginText((await loginState(home, plain))!, plain),
      'needs login for the scope "repo": run hel mcp login s',
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a link at the token file's path is a state that says why, not an error", async () => {
  const home = await Deno.makeTempDir();
  try {
    await writeLogin(home, { url: URL_ });
    const [file] = [...Deno.readDirSync(`${home}/mcp-auth`)].map((e) =>
      `${home}/mcp-auth/${e.name}`
    );
    await Deno.remove(file!);
    await Deno.symlink("/etc/passwd", file!);
    const state = await loginState(home, server({}));
    assert.equal(state?.state, "unusable");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("oauth settings read as names, and the review adds them and a stored login", () => {
  const settings = { clientId: "hel", clientSecretEnv: "SECRET", scopes: ["a", "b"] };
  assert.equal(
    shownOAuth(settings),
    "OAuth login (hel mcp login): client hel, secret from SECRET; the secret goes to the " +
      "authorization server the MCP server names; scopes a b",
  );
  // A machine grant: where its secret goes, named by the entry or by the server.
  const machine = { grant: "client_credentials" as const, clientId: "job", clientSecretEnv: "S" };
  assert.equal(
    shownOAuth(machine),
    "OAuth client credentials (no browser): client job, secret from S; the secret goes to the " +
      "authorization server the MCP server names",
  );
  assert.equal(
    shownOAuth({ ...machine, issuer: "https://auth.example.com" }),
    "OAuth client credentials (no browser): client job at https://auth.example.com, secret from S",
  );
  assert.equal(
    shownOAuth({ callbackPort: 33418 }),
    "OAuth login (hel mcp login): client registered at login; redirect port 33418",
  );
  const entry = server({ oauth: settings });
  const [shown] = summarizeServers([entry], new Set(), new Map([["s", { state: "logged-in" }]]))
    .entries;
  assert.equal(
    shown!.command,
    `${URL_} · no headers · OAuth login (hel mcp login): client hel, secret from SECRET; ` +
      "the secret goes to the authorization server the MCP server names; scopes a b · " +
      "gets your stored login for this address",
  );
});

Deno.test("a grant without a person never reads 'run hel mcp login'", async () => {
  const home = await Deno.makeTempDir();
  try {
    const job = server({
      oauth: { grant: "client_credentials", clientId: "job", clientSecretEnv: "S" },
    });
    assert.deepEqual(await loginState(home, job), { state: "at-connection" });
    await writeLogin(home, { url: URL_, wantedScope: "admin" });
    assert.deepEqual(await loginState(home, job), { state: "at-connection" });
    const expired = { state: "expired" as const, at: "2026-01-01T00:00:00Z", refreshable: true };
    assert.equal(
      loginText(expired, job),
      "token expired at 2026-01-01 00:00 UTC; the next connection fetches a new one",
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
