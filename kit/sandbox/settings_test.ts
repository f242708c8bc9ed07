import assert from "node:assert/strict";
import { SANDBOX_OPTIONS, sandboxFlags } from "./settings.ts";

Deno.test("the sandbox flags are read from the parsed flags", () => {
  assert.deepEqual(sandboxFlags({}), {
    sandbox: true,
    network: true,
    gitWrites: false,
    extraReads: [],
    passEnv: [],
  });
  assert.deepEqual(
    sandboxFlags({
      sandbox: "off",
      sandboxNetwork: "off",
      allowGitWrites: true,
      sandboxEnv: ["GITHUB_TOKEN"],
    }),
    { sandbox: false, network: false, gitWrites: true, extraReads: [], passEnv: ["GITHUB_TOKEN"] },
  );
});

Deno.test("the kit declares each sandbox flag once", () => {
  const names = SANDBOX_OPTIONS.map((option) => option.flags.split(" ")[0]);
  assert.deepEqual(names, [
    "--sandbox",
    "--sandbox-network",
    "--sandbox-read",
    "--sandbox-env",
    "--allow-git-writes",
  ]);
});
