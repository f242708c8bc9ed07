import assert from "node:assert/strict";
import { SANDBOX_OPTIONS, sandboxFlags } from "./settings.ts";

Deno.test("the sandbox flags are read from the parsed flags", () => {
  assert.deepEqual(sandboxFlags({}), {
    sandbox: true,
    network: true,
    gitWrites: false,
    extraReads: [],
  });
  assert.deepEqual(
    sandboxFlags({ sandbox: "off", sandboxNetwork: "off", allowGitWrites: true }),
    { sandbox: false, network: false, gitWrites: true, extraReads: [] },
  );
});

Deno.test("the kit declares each sandbox flag once", () => {
  const names = SANDBOX_OPTIONS.map((option) => option.flags.split(" ")[0]);
  assert.deepEqual(names, [
    "--sandbox",
    "--sandbox-network",
    "--sandbox-read",
    "--allow-git-writes",
  ]);
});
