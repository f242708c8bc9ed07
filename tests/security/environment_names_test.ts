/**
 * Red team on issue 11, class E: credentials whose names carry none of KEY, SECRET, TOKEN,
 * PASSWORD, PASSWD, PASSPHRASE or CREDENTIAL, but that tools read as such: `MYSQL_PWD` (the
 * MySQL client's password), `DOCKER_AUTH_CONFIG` (registry logins, as CI sets it) and npm's
 * `NPM_CONFIG__AUTH` (base64 `user:password`). A command the model runs must not see them;
 * `GIT_AUTHOR_NAME`, `XAUTHORITY`, `SSH_AUTH_SOCK` and `PWD` still pass.
 */
import assert from "node:assert/strict";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { runHel, scriptedModel, tempProject, toolMessage } from "../_helpers.ts";

const SECRETS = {
  MYSQL_PWD: "mysql-pwd-7c21",
  DOCKER_AUTH_CONFIG: '{"auths":{"r.example":{"auth":"docker-auth-91f0"}}}',
  NPM_CONFIG__AUTH: "npm-auth-3b8e",
};
const KEPT = {
  GIT_AUTHOR_NAME: "Ada",
  XAUTHORITY: "/x/.Xauthority",
  SSH_AUTH_SOCK: "/x/agent.sock",
};

Deno.test({
  name: "MYSQL_PWD, DOCKER_AUTH_CONFIG and NPM_CONFIG__AUTH stay out of commands",
  ignore: !hasBwrap(),
  async fn() {
    await using project = await tempProject();
    await using model = scriptedModel([
      { toolCalls: [{ id: "env", name: "bash", arguments: { command: "env" } }] },
      { text: "done" },
    ]);
    const result = await runHel(
      ["--base-url", model.url, "--access", "auto", "show the environment"],
      { cwd: project.project, env: { ...SECRETS, ...KEPT } },
    );
    assert.equal(result.code, 0, result.stderr);
    const seen = toolMessage(model, "env");
    for (const [name, value] of Object.entries(SECRETS)) {
      assert.ok(!seen.includes(value), `${name} reached the command`);
    }
    for (const [name, value] of Object.entries(KEPT)) {
      assert.ok(seen.includes(`${name}=${value}`), `${name} no longer reaches commands`);
    }
    assert.match(seen, /^PWD=/m);
  },
});
