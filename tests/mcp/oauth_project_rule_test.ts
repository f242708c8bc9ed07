/**
 * A project's `.hel/mcp.json` cannot make the person's own credentials go where the repository
 * chooses (plugins/mcp/oauth_project_rule.ts): a private key is refused, a secret from the
 * environment needs an `"issuer"`; `hel trust mcp` trusts nothing and `hel mcp list` names the
 * file, the field and the fix. The same entry in `$HEL_HOME/mcp.json` is accepted.
 *
 * @module
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../../kit/mod.ts";
import { tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const url = "https://mcp.example.com/mcp";
const file = (oauth: Record<string, unknown>) =>
  JSON.stringify({ servers: { job: { url, oauth } } });
const key = { grant: "client_credentials", clientId: "job", privateKeyFile: "/home/me/.ssh/id" };
const secret = { grant: "client_credentials", clientId: "job", clientSecretEnv: "JOB_SECRET" };

Deno.test("a project entry may not use a private key of the machine, nor a secret without an issuer", async () => {
  for (
    const [oauth, field, why] of [
      [key, "privateKeyFile", /is not allowed in a project's file: a private key of your machine/],
      [{ ...key, privateKeyFile: undefined, privateKeyEnv: "KEY" }, "privateKeyEnv", /a private/],
      [secret, "clientSecretEnv", /needs servers\."job"\.oauth\.issuer in a project's file/],
    ] as const
  ) {
    await using project = await tempProject();
    await project.write(".hel/mcp.json", file(oauth));
    const trust = await runHelInProcess(["trust", "mcp"], { cwd: project.project });
    assert.equal(trust.code, 1, trust.stderr);
    const listed = await runHelInProcess(["mcp", "list"], { cwd: project.project });
    assert.equal(listed.code, 1, listed.stdout + listed.stderr);
    for (const output of [trust.stderr, listed.stdout]) {
      const line = output.split("\n").find((l) => l.includes(`oauth.${field}`)) ?? output;
      assert.match(line, /\.hel\/mcp\.json:1:\d+: servers\."job"\.oauth\./);
      assert.match(line, why);
      assert.match(line, /put this entry in \$HEL_HOME\/mcp\.json, your own file$/);
    }
    // The person's own file may.
    await Deno.remove(`${project.project}/.hel/mcp.json`);
    await Deno.writeTextFile(`${project.root}/hel-home/mcp.json`, file(oauth));
    const own = await runHelInProcess(["mcp", "get", "job"], { cwd: project.project });
    assert.equal(own.code, 0, own.stdout + own.stderr);
  }
});

Deno.test("a project entry's secret from the environment is accepted with an issuer, which hel mcp get shows", async () => {
  await using project = await tempProject();
  await project.write(".hel/mcp.json", file({ ...secret, issuer: "https://auth.example.com" }));
  const sha256 = await sha256Hex(await Deno.readFile(`${project.project}/.hel/mcp.json`));
  const trust = await runHelInProcess(["trust", "mcp", "--sha256", sha256], {
    cwd: project.project,
  });
  assert.equal(trust.code, 0, trust.stderr);
  const got = await runHelInProcess(["mcp", "get", "job"], { cwd: project.project });
  assert.match(
    got.stdout,
    /client job at https:\/\/auth\.example\.com, secret from JOB_SECRET/,
    got.stderr,
  );
});
