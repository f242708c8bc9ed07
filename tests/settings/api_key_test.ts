/**
 * The model API key: a local model server (a loopback base URL) needs none and then gets no
 * Authorization header at all; any other server without a key is a usage error before any
 * request; the `apiKeyEnv` setting picks the variable, which no child process gets.
 */
import assert from "node:assert/strict";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { scriptedModel, tempProject, toolMessage } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const NO_KEYS = ["HEL_API_KEY", "DEEPSEEK_API_KEY"];

Deno.test("a loopback server without a key gets requests with no Authorization header", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "local" }, { text: "keyed" }]);
  const keyless = await runHelInProcess(["--base-url", model.url, "hi"], {
    cwd: project.project,
    unset: NO_KEYS,
  });
  assert.equal(keyless.code, 0, keyless.stderr);
  assert.equal(keyless.stdout, "local\n");
  const headers = model.requests[0]!.headers!;
  assert.equal(headers["content-type"], "application/json", "the headers were recorded");
  assert.equal("authorization" in headers, false, JSON.stringify(headers));

  const keyed = await runHelInProcess(["--base-url", model.url, "hi"], { cwd: project.project });
  assert.equal(keyed.code, 0, keyed.stderr);
  assert.equal(model.requests[1]!.headers!.authorization, "Bearer test-key");
});

Deno.test("another server without a key is a usage error naming what to set, before any request", async () => {
  await using project = await tempProject();
  const remote = await runHelInProcess(["--base-url", "https://api.example.invalid/v1", "hi"], {
    cwd: project.project,
    unset: NO_KEYS,
  });
  assert.equal(remote.code, 2, remote.stderr);
  assert.match(remote.stderr, /^hel: no model API key: set HEL_API_KEY or DEEPSEEK_API_KEY/);
  await Deno.writeTextFile(
    `${project.root}/hel-home/settings.jsonc`,
    '{"apiKeyEnv": "MODEL_CODE", "baseUrl": "https://api.example.invalid/v1"}',
  );
  const named = await runHelInProcess(["hi"], { cwd: project.project, unset: NO_KEYS });
  assert.equal(named.code, 2, named.stderr);
  assert.match(
    named.stderr,
    /^hel: no model API key: the apiKeyEnv setting names MODEL_CODE, which is not set; set MODEL_CODE/,
  );
});

Deno.test("apiKeyEnv picks the key's variable, and commands never see that variable", async () => {
  await using project = await tempProject();
  await Deno.writeTextFile(
    `${project.root}/hel-home/settings.jsonc`,
    '{"apiKeyEnv": "MODEL_CODE"}',
  );
  await using model = scriptedModel([
    { toolCalls: [{ id: "call_env", name: "bash", arguments: { command: "echo [$MODEL_CODE]" } }] },
    { text: "done" },
  ]);
  const sandbox = hasBwrap() ? [] : ["--sandbox", "off"];
  const result = await runHelInProcess(
    ["--base-url", model.url, "--access", "auto", ...sandbox, "go"],
    { cwd: project.project, env: { MODEL_CODE: "code-123" } },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(model.requests[0]!.headers!.authorization, "Bearer code-123");
  assert.equal(toolMessage(model, "call_env"), "exit=0\n[]\n");
});
