/**
 * Settings files end to end: flags beat the environment, which beats the project's
 * `.hel/settings.jsonc`, which beats the person's `$HEL_HOME/settings.jsonc`, which beats the
 * defaults — seen in the requests the model received and in `hel config list`.
 */
import assert from "node:assert/strict";
import { runHel, scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const userFile = (root: string) => `${root}/hel-home/settings.jsonc`;

Deno.test("the model of a request comes from the flag, else the project file, else the user file, else the default", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "1" }, { text: "2" }, { text: "3" }, { text: "4" }]);
  const run = async (...flags: string[]) => {
    const result = await runHelInProcess(["--base-url", model.url, ...flags, "hi"], {
      cwd: project.project,
    });
    assert.equal(result.code, 0, result.stderr);
    return model.requests.at(-1)!.body;
  };
  assert.equal((await run()).model, "deepseek-flash");

  await Deno.writeTextFile(
    userFile(project.root),
    '{\n  // mine\n  "model": "user-model",\n  "maxOutputTokens": 1234\n}\n',
  );
  const user = await run();
  assert.equal(user.model, "user-model");
  assert.equal(user.max_tokens, 1234);

  await project.write(".hel/settings.jsonc", '{"model": "project-model"}\n');
  const projectRun = await run();
  assert.equal(projectRun.model, "project-model");
  assert.equal(projectRun.max_tokens, 1234, "the user file still gives what the project does not");

  const flagged = await run("--model", "flag-model", "--max-output-tokens", "99");
  assert.equal(flagged.model, "flag-model");
  assert.equal(flagged.max_tokens, 99);
  assert.equal(model.remaining(), 0);
});

Deno.test("an environment variable beats the project file and loses to the flag (a child process: commander reads the process's own environment)", async () => {
  await using project = await tempProject({ ".hel/settings.jsonc": '{"model": "project-model"}' });
  await using model = scriptedModel([{ text: "1" }, { text: "2" }]);
  const env = { HEL_MODEL: "env-model" };
  const fromEnv = await runHel(["--base-url", model.url, "hi"], { cwd: project.project, env });
  assert.equal(fromEnv.code, 0, fromEnv.stderr);
  assert.equal(model.requests[0]!.body.model, "env-model");
  const fromFlag = await runHel(["--base-url", model.url, "--model", "flag-model", "hi"], {
    cwd: project.project,
    env,
  });
  assert.equal(fromFlag.code, 0, fromFlag.stderr);
  assert.equal(model.requests[1]!.body.model, "flag-model");
});

Deno.test("hel config list shows each value and where it came from: flag, env, project, user, default", async () => {
  await using project = await tempProject({
    ".hel/settings.jsonc": '{"model": "project-model", "timeout": 30, "maxTurns": 9}',
  });
  await Deno.writeTextFile(
    userFile(project.root),
    '{"maxTurns": 7, "maxOutputTokens": 555, "compaction": {"keepRecent": 4000}}',
  );
  const list = await runHel(["--max-output-tokens", "100", "config", "list"], {
    cwd: project.project,
    env: { HEL_BASE_URL: "http://127.0.0.1:9/v1" },
  });
  assert.equal(list.code, 0, list.stderr);
  const row = (key: string) =>
    list.stdout.split("\n").find((line) => line.startsWith(`${key} `))?.split(/ {2,}/);
  const projectFile = `project ${project.project}/.hel/settings.jsonc`;
  const userSettings = `user ${userFile(project.root)}`;
  assert.deepEqual(row("setting"), ["setting", "value", "from"]);
  assert.deepEqual(row("maxOutputTokens"), ["maxOutputTokens", "100", "flag --max-output-tokens"]);
  assert.deepEqual(row("baseUrl"), ["baseUrl", '"http://127.0.0.1:9/v1"', "env HEL_BASE_URL"]);
  assert.deepEqual(row("model"), ["model", '"project-model"', projectFile]);
  assert.deepEqual(row("maxTurns"), ["maxTurns", "9", projectFile]);
  assert.deepEqual(row("compaction.keepRecent"), ["compaction.keepRecent", "4000", userSettings]);
  assert.deepEqual(row("access"), ["access", '"confirm"', "default"]);

  const get = await runHelInProcess(["config", "get", "compaction.keepRecent"], {
    cwd: project.project,
  });
  assert.equal(get.stdout, "4000\n");
  const model = await runHelInProcess(["config", "get", "model"], { cwd: project.project });
  assert.equal(model.stdout, "project-model\n", "a string prints as itself, for scripts");
});
