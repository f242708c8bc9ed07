import assert from "node:assert/strict";
import { MachineOAuthProvider } from "./oauth_machine.ts";
import { readLogin } from "./oauth_store.ts";

const URL_ = "https://mcp.example.com/mcp";
const noFetch = () => Promise.reject(new Error("no request expected"));

Deno.test("client credentials: bound to the first authorization server, the secret never stored", async () => {
  const helHome = await Deno.makeTempDir();
  try {
    const options = {
      helHome,
      url: URL_,
      settings: { grant: "client_credentials" as const, clientId: "job" },
      secrets: { clientSecret: "s3cret" },
      fetchFn: noFetch,
    };
    const provider = new MachineOAuthProvider(options);
    assert.equal(provider.redirectUrl, undefined, "no browser: the SDK reads this as no person");
    assert.deepEqual(provider.clientInformation(), { client_id: "job", client_secret: "s3cret" });
    assert.equal(
      String(await provider.prepareTokenRequest("mcp:tools")),
      "grant_type=client_credentials&scope=mcp%3Atools",
    );
    // What the SDK does after the first token: it stamps the client with the issuer.
    await provider.saveClientInformation({
      client_id: "job",
      client_secret: "s3cret",
      issuer: "https://auth.example.com",
    });
    const stored = await readLogin(helHome, URL_);
    assert.deepEqual(stored?.client, { client_id: "job", issuer: "https://auth.example.com" });
    // The next run: the credentials go to that authorization server only.
    const next = new MachineOAuthProvider({ ...options, stored });
    assert.equal(next.clientInformation().issuer, "https://auth.example.com");
    assert.ok(
      !(await Deno.readTextFile(`${helHome}/mcp-auth/${await keyFile(helHome)}`))
        .includes("s3cret"),
    );
  } finally {
    await Deno.remove(helHome, { recursive: true });
  }
});

async function keyFile(helHome: string): Promise<string> {
  for await (const entry of Deno.readDir(`${helHome}/mcp-auth`)) {
    if (entry.name.endsWith(".json")) return entry.name;
  }
  throw new Error("no login file");
}

Deno.test("private_key_jwt: the SDK's signer is the client authentication", () => {
  const provider = new MachineOAuthProvider({
    helHome: "/nonexistent",
    url: URL_,
    settings: { grant: "client_credentials", clientId: "job", signingAlgorithm: "ES256" },
    secrets: { privateKey: "-----BEGIN PRIVATE KEY-----\n..." },
    fetchFn: noFetch,
  });
  assert.equal(typeof provider.addClientAuthentication, "function");
  assert.equal(provider.clientMetadata.token_endpoint_auth_method, "private_key_jwt");
  assert.deepEqual(provider.clientInformation(), { client_id: "job" });
});

Deno.test("cross-app access: the ID token is exchanged at the IdP for the discovered server", async () => {
  const sent: { url: string; body: URLSearchParams; redirect?: string }[] = [];
  const idp = (url: string | URL, init?: RequestInit) => {
    sent.push({ url: String(url), body: init!.body as URLSearchParams, redirect: init!.redirect });
    return Promise.resolve(Response.json({
      access_token: "the-id-jag",
      issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      token_type: "N_A",
    }));
  };
  const provider = new MachineOAuthProvider({
    helHome: "/nonexistent",
    url: URL_,
    settings: {
      grant: "cross_app_access",
      clientId: "hel",
      idpTokenEndpoint: "https://idp.example.com/token",
      idpClientId: "hel-at-idp",
    },
    secrets: { clientSecret: "as-secret", idToken: "the-id-token" },
    fetchFn: idp,
  });
  provider.saveDiscoveryState({
    authorizationServerUrl: "https://auth.example.com/",
    authorizationServerMetadata: {
      issuer: "https://auth.example.com",
      authorization_endpoint: "https://auth.example.com/authorize",
      token_endpoint: "https://auth.example.com/token",
      response_types_supported: ["code"],
    },
    resourceMetadata: { resource: "https://mcp.example.com/mcp" },
  });
  const request = await provider.prepareTokenRequest();
  assert.equal(request.get("grant_type"), "urn:ietf:params:oauth:grant-type:jwt-bearer");
  assert.equal(request.get("assertion"), "the-id-jag");
  assert.equal(sent.length, 1);
  assert.equal(sent[0]!.url, "https://idp.example.com/token");
  assert.equal(sent[0]!.redirect, "manual", "the ID token is never resent elsewhere");
  assert.deepEqual(Object.fromEntries(sent[0]!.body), {
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
    audience: "https://auth.example.com",
    resource: "https://mcp.example.com/mcp",
    subject_token: "the-id-token",
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    client_id: "hel-at-idp",
  });
});

Deno.test("cross-app access: an IdP refusal is said with its error, without the token", async () => {
  const provider = new MachineOAuthProvider({
    helHome: "/nonexistent",
    url: URL_,
    settings: {
      grant: "cross_app_access",
      clientId: "hel",
      idpTokenEndpoint: "https://idp.example.com/token",
      idpClientId: "hel-at-idp",
    },
    secrets: { idToken: "the-id-token" },
    fetchFn: () =>
      Promise.resolve(
        Response.json({ error: "invalid_grant", error_description: "expired" }, { status: 400 }),
      ),
  });
  provider.saveDiscoveryState({ authorizationServerUrl: "https://auth.example.com/" });
  await assert.rejects(
    () => provider.prepareTokenRequest(),
    (error: Error) => {
      assert.match(
        error.message,
        /^the identity provider's token endpoint \(https:\/\/idp\.example\.com\/token\) refused to exchange your ID token \(HTTP 400 invalid_grant: expired\); check idTokenEnv/,
      );
      assert.doesNotMatch(error.message, /the-id-token/);
      return true;
    },
  );
});
