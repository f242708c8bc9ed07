import assert from "node:assert/strict";
import { HelOAuthProvider, NeedsLoginError } from "./oauth_provider.ts";
import { readLogin, writeLogin } from "./oauth_store.ts";

const URL_ = "https://mcp.example.com/mcp";

Deno.test("step-up in a run: the scope asked for is kept for the next login, and said", async () => {
  const helHome = await Deno.makeTempDir();
  try {
    const stored = {
      url: URL_,
      client: { client_id: "c1" },
      tokens: { access_token: "A", token_type: "Bearer" },
    };
    await writeLogin(helHome, stored);
    const provider = new HelOAuthProvider({
      helHome,
      url: URL_,
      stored,
      mode: "run",
      loginCommand: "hel mcp login secure",
    });
    // Where the SDK would send a browser after a 403 insufficient_scope: a run sends none.
    const authorize = new URL("https://auth.example.com/authorize");
    authorize.searchParams.set("scope", "mcp:basic mcp:write\u001b[2J");
    await assert.rejects(
      () => Promise.resolve(provider.redirectToAuthorization(authorize)),
      (error: unknown) => {
        assert.ok(error instanceof NeedsLoginError);
        assert.equal(error.scope, "mcp:basic mcp:write[2J");
        assert.match(error.message, /for the scope "mcp:basic mcp:write\[2J": run hel mcp login/);
        return true;
      },
    );
    assert.equal((await readLogin(helHome, URL_))?.wantedScope, "mcp:basic mcp:write[2J");
  } finally {
    await Deno.remove(helHome, { recursive: true });
  }
});

Deno.test("a run without a stored client needs a login; it registers nothing itself", () => {
  const provider = new HelOAuthProvider({ helHome: "/nonexistent", url: URL_, mode: "run" });
  assert.throws(() => provider.clientInformation(), NeedsLoginError);
});

Deno.test("a client ID metadata document's address is offered to the SDK as given", () => {
  const clientMetadataUrl = "https://example.com/hel-client.json";
  const provider = new HelOAuthProvider({
    helHome: "/nonexistent",
    url: URL_,
    mode: "login",
    settings: { clientMetadataUrl },
  });
  assert.equal(provider.clientMetadataUrl, clientMetadataUrl);
  assert.equal(
    new HelOAuthProvider({ helHome: "/x", url: URL_, mode: "login" }).clientMetadataUrl,
    undefined,
  );
});

Deno.test("a pre-registered client is bound to the first authorization server that took it, its secret not stored", async () => {
  const helHome = await Deno.makeTempDir();
  try {
    const options = {
      helHome,
      url: URL_,
      mode: "login" as const,
      settings: { clientId: "pre", clientSecretEnv: "SECRET" },
      clientSecret: "s3cret",
    };
    const first = new HelOAuthProvider(options);
    assert.equal(first.clientInformation()?.issuer, undefined);
    // What the SDK does once the first authorization server gave tokens: stamps the client.
    await first.saveClientInformation({
      client_id: "pre",
      client_secret: "s3cret",
      issuer: "https://auth.example.com/",
    });
    const stored = await readLogin(helHome, URL_);
    assert.deepEqual(stored?.client, { client_id: "pre", issuer: "https://auth.example.com/" });
    const next = new HelOAuthProvider({ ...options, stored });
    assert.deepEqual(next.clientInformation(), {
      client_id: "pre",
      client_secret: "s3cret",
      issuer: "https://auth.example.com/",
    });
    // Discovery leads to another authorization server: refused before anything goes there.
    assert.throws(
      () => next.saveDiscoveryState({ authorizationServerUrl: "https://evil.example/" }),
      /bound to authorization server https:\/\/auth\.example\.com\/ and is not presented to https:\/\/evil\.example\//,
    );
    next.saveDiscoveryState({ authorizationServerUrl: "https://auth.example.com" });
    // The server names another authorization server; the SDK registered a client there instead.
    await assert.rejects(
      () => next.saveClientInformation({ client_id: "other", issuer: "https://evil.example/" }),
      /bound to authorization server https:\/\/auth\.example\.com\/ and is not presented to https:\/\/evil\.example\//,
    );
  } finally {
    await Deno.remove(helHome, { recursive: true });
  }
});
