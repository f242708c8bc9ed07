import assert from "node:assert/strict";
import { urlServer } from "./remote_flags.ts";

const URL = "https://mcp.example.com/mcp";

Deno.test("the OAuth flags fill the entry's oauth fields, validated as a file's", () => {
  const server = urlServer(URL, {
    headerEnv: [],
    grant: "client_credentials",
    clientId: "job",
    privateKeyEnv: "JOB_KEY",
    signingAlgorithm: "ES256",
  });
  assert.ok(typeof server !== "string", String(server));
  assert.deepEqual(server.remote?.oauth, {
    grant: "client_credentials",
    clientId: "job",
    privateKeyEnv: "JOB_KEY",
    signingAlgorithm: "ES256",
  });
  const cimd = urlServer(URL, { headerEnv: [], clientMetadataUrl: "https://e.com/hel.json" });
  assert.ok(typeof cimd !== "string", String(cimd));
  assert.equal(cimd.remote?.oauth?.clientMetadataUrl, "https://e.com/hel.json");
});

Deno.test("a mistake in the OAuth flags is said with the flags' names", () => {
  assert.equal(
    urlServer(URL, { headerEnv: [], grant: "client_credentials" }),
    "--grant client_credentials needs --client-id",
  );
  assert.equal(
    urlServer(URL, { headerEnv: [], idTokenEnv: "T" }),
    "--id-token-env does not go with a browser login (no --grant) (it is for --grant " +
      "cross_app_access); leave it out or change --grant",
  );
  assert.match(
    String(urlServer(URL, { headerEnv: [], clientId: "a", clientMetadataUrl: "https://e.com/c" })),
    /^you gave both --client-id and --client-metadata-url; /,
  );
  assert.match(
    String(
      urlServer(URL, {
        headerEnv: [],
        grant: "client_credentials",
        clientId: "a",
        privateKeyEnv: "${K}",
      }),
    ),
    /^--private-key-env must be the name of a variable/,
  );
});
