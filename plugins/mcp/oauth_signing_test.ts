import assert from "node:assert/strict";
import { SIGNING_ALGORITHMS } from "./oauth_fields.ts";
import { MachineOAuthProvider } from "./oauth_machine.ts";

/** A fresh PKCS#8 PEM key for `alg`, as a person would keep in privateKeyFile. */
async function pemKey(alg: string): Promise<string> {
  const hash = `SHA-${alg.slice(2)}`;
  const params: RsaHashedKeyGenParams | EcKeyGenParams | { name: string } = alg.startsWith("RS")
    ? {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash,
    }
    : alg.startsWith("PS")
    ? { name: "RSA-PSS", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash }
    : alg.startsWith("ES")
    ? { name: "ECDSA", namedCurve: { ES256: "P-256", ES384: "P-384", ES512: "P-521" }[alg]! }
    : { name: "Ed25519" };
  const pair = await crypto.subtle.generateKey(params, true, ["sign", "verify"]) as CryptoKeyPair;
  const der = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  const base64 = btoa(String.fromCharCode(...der)).replace(/.{64}/g, "$&\n");
  return `-----BEGIN PRIVATE KEY-----\n${base64}\n-----END PRIVATE KEY-----\n`;
}

Deno.test("every signingAlgorithm hel accepts signs a client assertion with a key of its kind", async () => {
  for (const alg of SIGNING_ALGORITHMS) {
    let key: string;
    try {
      key = await pemKey(alg);
    } catch (error) {
      assert.fail(`${alg}: this machine cannot make such a key (${error})`);
    }
    const provider = new MachineOAuthProvider({
      helHome: "/nonexistent",
      url: "https://mcp.example.com/mcp",
      settings: { grant: "client_credentials", clientId: "job", signingAlgorithm: alg },
      secrets: { privateKey: key },
      fetchFn: () => Promise.reject(new Error("no request expected")),
    });
    const params = new URLSearchParams();
    await Promise.resolve(
      provider.addClientAuthentication!(new Headers(), params, "https://auth.example.com/token"),
    ).catch((error: Error) => assert.fail(`${alg}: ${error.message}`));
    assert.match(params.get("client_assertion") ?? "", /^[\w-]+\.[\w-]+\.[\w-]+$/, alg);
  }
});
