/**
 * Issue 11, class E: the environment of sandboxed programs. Credentials in hel's environment
 * (`AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`, `GEMINI_API_KEY`) never reach a command the model
 * runs, although hiding `~/.aws` was already done; `--sandbox-env NAME` passes one on purpose.
 */
import assert from "node:assert/strict";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { runHel, scriptedModel, tempProject } from "../_helpers.ts";

const SECRETS = {
  AWS_SECRET_ACCESS_KEY: "aws-secret-5c1e7f",
  GITHUB_TOKEN: "ghp-token-90ad3b",
  GEMINI_API_KEY: "gemini-key-e4b822",
  db_password: "db-password-1f9a", // any case
};

/** Runs `env` through bash with `flags`; returns the tool's reply the model got, and stderr. */
async function envSeenByBash(flags: string[]): Promise<{ seen: string; stderr: string }> {
  await using project = await tempProject();
  await using model = scriptedModel([
    { toolCalls: [{ name: "bash", arguments: { command: "env" } }] },
    { text: "done" },
  ]);
  const result = await runHel(
    ["--base-url", model.url, "--access", "auto", ...flags, "show the environment"],
    { cwd: project.project, env: { ...SECRETS, HEL_EVERYDAY: "still-here-3d" } },
  );
  assert.equal(result.code, 0, result.stderr);
  const messages = model.requests.at(-1)!.messages;
  const reply = messages.find((message: { role: string }) => message.role === "tool");
  assert.match(reply.content, /^exit=0/);
  return { seen: reply.content, stderr: result.stderr };
}

Deno.test({
  name: "sandboxed bash does not see credentials from hel's environment",
  ignore: !hasBwrap(),
  async fn() {
    const { seen } = await envSeenByBash([]);
    for (const [name, value] of Object.entries(SECRETS)) {
      assert.doesNotMatch(seen, new RegExp(value), `${name} reached the command`);
    }
    assert.match(seen, /^HEL_EVERYDAY=still-here-3d$/m, "ordinary variables are still passed");
    assert.match(seen, /^PATH=/m);
  },
});

Deno.test({
  name: "--sandbox-env GITHUB_TOKEN passes that one variable, and only it",
  ignore: !hasBwrap(),
  async fn() {
    const flags = ["--sandbox-env", "GITHUB_TOKEN", "--sandbox-env", "GITHUB_TOKNE"];
    const { seen, stderr } = await envSeenByBash(flags);
    assert.match(seen, new RegExp(`^GITHUB_TOKEN=${SECRETS.GITHUB_TOKEN}$`, "m"));
    // A misspelt name passes nothing, and hel says so.
    assert.match(stderr, /warning: --sandbox-env GITHUB_TOKNE: hel's environment has no /);
    assert.doesNotMatch(seen, new RegExp(SECRETS.AWS_SECRET_ACCESS_KEY));
    assert.doesNotMatch(seen, new RegExp(SECRETS.GEMINI_API_KEY));
  },
});

Deno.test("with --sandbox off the credentials stay out of commands too", async () => {
  const { seen } = await envSeenByBash(["--sandbox", "off"]);
  for (const value of Object.values(SECRETS)) assert.doesNotMatch(seen, new RegExp(value));
});

Deno.test("--sandbox-env takes a variable name, not an assignment", async () => {
  await using project = await tempProject();
  for (
    const [bad, why] of [["GITHUB_TOKEN=abc", /expected the name of a variable/], [
      "HEL_API_KEY",
      /the model API key never reaches/,
    ]] as const
  ) {
    const result = await runHel(["--sandbox-env", bad, "hi"], { cwd: project.project });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^hel: --sandbox-env /m);
    assert.match(result.stderr, why);
  }
});
