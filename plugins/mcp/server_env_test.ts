import assert from "node:assert/strict";
import { baseEnvironment, entryEnvironment, envReference } from "./server_env.ts";

Deno.test("the base keeps PATH, HOME, locale and toolchain settings, never secrets", () => {
  const base = baseEnvironment({
    PATH: "/usr/bin",
    HOME: "/home/u",
    LANG: "C.UTF-8",
    LC_ALL: "C",
    NVM_DIR: "/home/u/.nvm",
    AWS_SECRET_ACCESS_KEY: "s",
    GITHUB_TOKEN: "t",
    DATABASE_URL: "postgres://u:p@h/db",
    LC_lower: "x",
  });
  assert.deepEqual(Object.keys(base).sort(), ["HOME", "LANG", "LC_ALL", "NVM_DIR", "PATH"]);
});

Deno.test("${NAME} passes hel's variable on, ${NAME:-x} has a default, text stays text", () => {
  assert.deepEqual(envReference("${A}"), { name: "A" });
  assert.deepEqual(envReference("${A:-b c}"), { name: "A", fallback: "b c" });
  assert.equal(envReference("$A"), undefined);
  assert.equal(envReference("${A}/x"), undefined);
  const { env, unset } = entryEnvironment(
    { T: "${GITHUB_TOKEN}", L: "${LEVEL:-warn}", M: "${MISSING}", K: "${HEL_API_KEY}", P: "1" },
    { GITHUB_TOKEN: "t" }, // hel's child environment: model keys already removed
  );
  assert.deepEqual(env, { T: "t", L: "warn", P: "1" });
  assert.deepEqual(unset, ["M", "K"]);
});
