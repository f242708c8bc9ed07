import assert from "node:assert/strict";
import { UsageError } from "../../core/mod.ts";
import { looksSecret, parseSandboxEnv, withoutSecrets } from "./environment.ts";

Deno.test("names that look like credentials are dropped in any case, the rest kept", () => {
  const env = {
    PATH: "/usr/bin",
    HOME: "/home/u",
    PWD: "/w",
    OLDPWD: "/",
    GIT_AUTHOR_NAME: "A",
    AWS_SECRET_ACCESS_KEY: "s",
    GITHUB_TOKEN: "t",
    gemini_api_key: "k",
    PGPASSWORD: "p",
    SMTP_Passwd: "p",
    GPG_PASSPHRASE: "p",
    GOOGLE_APPLICATION_CREDENTIALS: "/c.json",
    SSH_PRIVATE_KEY: "k",
  };
  assert.deepEqual(withoutSecrets(env), {
    PATH: "/usr/bin",
    HOME: "/home/u",
    PWD: "/w",
    OLDPWD: "/",
    GIT_AUTHOR_NAME: "A",
  });
  assert.deepEqual(Object.keys(withoutSecrets(env, ["GITHUB_TOKEN", "NOT_SET"])).sort(), [
    "GITHUB_TOKEN",
    "GIT_AUTHOR_NAME",
    "HOME",
    "OLDPWD",
    "PATH",
    "PWD",
  ]);
  assert.ok(looksSecret("npm_config__authtoken"));
  assert.ok(!looksSecret("LANG"));
  for (const name of ["MYSQL_PWD", "DOCKER_AUTH_CONFIG", "NPM_CONFIG__AUTH", "basic_auth"]) {
    assert.ok(looksSecret(name), name);
  }
  for (const name of ["PWD", "OLDPWD", "XAUTHORITY", "GIT_AUTHOR_EMAIL", "SSH_AUTH_SOCK"]) {
    assert.ok(!looksSecret(name), name);
  }
});

Deno.test("--sandbox-env takes variable names, once each, never the model API key", () => {
  assert.deepEqual(parseSandboxEnv(undefined), []);
  assert.deepEqual(parseSandboxEnv(["GITHUB_TOKEN", "_X1", "GITHUB_TOKEN"]), [
    "GITHUB_TOKEN",
    "_X1",
  ]);
  for (const bad of ["A=b", "1A", "", "A B", "A-B"]) {
    assert.throws(() => parseSandboxEnv([bad]), (error: Error) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /^--sandbox-env ".*": expected the name of a variable/);
      return true;
    });
  }
  assert.throws(() => parseSandboxEnv(["HEL_API_KEY"]), /model API key never reaches/);
});
