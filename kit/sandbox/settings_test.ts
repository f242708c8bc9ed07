import assert from "node:assert/strict";
import { SANDBOX_OPTIONS, sandboxFlags } from "./settings.ts";

Deno.test("the sandbox flags are read from the parsed flags", () => {
  assert.deepEqual(sandboxFlags({}), {
    sandbox: true,
    network: true,
    gitWrites: false,
    extraReads: [],
    passEnv: [],
    maxProcesses: 1024,
  });
  assert.deepEqual(
    sandboxFlags({
      sandbox: "off",
      sandboxNetwork: "off",
      allowGitWrites: true,
      sandboxEnv: ["GITHUB_TOKEN"],
      sandboxProcesses: "64",
    }),
    {
      sandbox: false,
      network: false,
      gitWrites: true,
      extraReads: [],
      passEnv: ["GITHUB_TOKEN"],
      maxProcesses: 64,
    },
  );
  for (const bad of ["0", "1.5", "many"]) {
    assert.throws(
      () => sandboxFlags({ sandboxProcesses: bad }),
      new RegExp(`--sandbox-processes: expected a positive whole number, got "${bad}"`),
    );
  }
});

Deno.test("the kit declares each sandbox flag once", () => {
  const names = SANDBOX_OPTIONS.map((option) => option.flags.split(" ")[0]);
  assert.deepEqual(names, [
    "--sandbox",
    "--sandbox-network",
    "--sandbox-read",
    "--sandbox-env",
    "--allow-git-writes",
    "--sandbox-processes",
  ]);
});
