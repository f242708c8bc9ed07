/**
 * `hel config set/get/unset` change the settings files keeping their comments, check a value
 * before writing anything, and say when a change to the project's file needs trust again. A
 * broken settings file stops hel with exit 2 and every mistake at its line and column.
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const USER_FILE = `// my settings
{
  // the model I use most
  "model": "a", /* keep */
}
`;

Deno.test("hel config set changes the person's file keeping its comments; get reads it back", async () => {
  await using project = await tempProject();
  const file = `${project.root}/hel-home/settings.jsonc`;
  await Deno.writeTextFile(file, USER_FILE);
  const hel = (...args: string[]) => runHelInProcess(args, { cwd: project.project });

  const set = await hel("config", "set", "model", "b");
  assert.equal(set.code, 0, set.stderr);
  assert.equal(set.stderr, `hel: model = "b" in ${file}\n`);
  assert.equal(await Deno.readTextFile(file), USER_FILE.replace('"a"', '"b"'));

  const nested = await hel("config", "set", "compaction.keepRecent", "5000");
  assert.equal(nested.code, 0, nested.stderr);
  const text = await Deno.readTextFile(file);
  // jsonc-parser puts a new field before a trailing comment; every comment stays.
  assert.equal(
    text,
    '// my settings\n{\n  // the model I use most\n  "model": "b",\n  "compaction": {\n' +
      '    "keepRecent": 5000\n  }, /* keep */\n}\n',
  );
  assert.equal((await hel("config", "get", "compaction.keepRecent")).stdout, "5000\n");
  assert.equal((await hel("config", "get", "compaction")).stdout.trim().startsWith("{"), true);

  const list = await hel("config", "set", "permissions.deny", '["bash(rm:*)"]');
  assert.equal(list.code, 0, list.stderr);
  assert.equal((await hel("config", "get", "permissions.deny")).stdout, '["bash(rm:*)"]\n');

  const unset = await hel("config", "unset", "model");
  assert.equal(unset.code, 0, unset.stderr);
  assert.equal((await hel("config", "get", "model")).stdout, "deepseek-flash\n");
  assert.match(await Deno.readTextFile(file), /^\/\/ my settings\n/);
});

Deno.test("hel config set checks the value and the key before writing anything", async () => {
  await using project = await tempProject();
  const file = `${project.root}/hel-home/settings.jsonc`;
  await Deno.writeTextFile(file, USER_FILE);
  const hel = (...args: string[]) => runHelInProcess(args, { cwd: project.project });

  const negative = await hel("config", "set", "maxTurns", "-3");
  assert.equal(negative.code, 2);
  assert.equal(negative.stderr, "hel: maxTurns must be a positive whole number, e.g. 50\n");
  const tool = await hel("config", "set", "tools", '["read_file", "bsh"]');
  assert.equal(tool.code, 2);
  assert.match(tool.stderr, /^hel: tools\[1\]: unknown tool "bsh" \(did you mean "bash"\?\)/);
  // Not JSON, so taken as text: the error says how a list is written.
  const plain = await hel("config", "set", "tools", "read_file,grep");
  assert.equal(plain.code, 2);
  assert.equal(
    plain.stderr,
    'hel: tools must be a list of tool names, e.g. ["read_file", "grep"]\n' +
      `hel: values are JSON: write a list as '["a", "b"]', false and numbers bare\n`,
  );
  const typo = await hel("config", "set", "compaction.keeprecent", "5");
  assert.equal(typo.code, 2);
  assert.match(
    typo.stderr,
    /^hel: unknown setting compaction\.keeprecent \(did you mean "compaction\.keepRecent"\?\)/,
  );
  assert.equal(await Deno.readTextFile(file), USER_FILE, "nothing was written");
});

Deno.test("hel config set --project writes .hel/settings.jsonc and says a widening setting needs trust", async () => {
  await using project = await tempProject();
  const set = await runHelInProcess(["config", "set", "--project", "access", "auto"], {
    cwd: project.project,
  });
  assert.equal(set.code, 0, set.stderr);
  assert.match(set.stderr, /^hel: access = "auto" in \S+\/project\/\.hel\/settings\.jsonc$/m);
  assert.match(
    set.stderr,
    /settings\.jsonc changed, and access would widen what hel may do, so it applies only once you trust the file as it is now: hel trust settings$/m,
  );
  assert.equal(JSON.parse(await project.read(".hel/settings.jsonc")).access, "auto");
  const narrowing = await runHelInProcess(["config", "set", "--project", "maxTurns", "4"], {
    cwd: project.project,
  });
  assert.equal(narrowing.code, 0, narrowing.stderr);
  // Still said: the file as a whole has changed and still widens.
  assert.match(narrowing.stderr, /access would widen what hel may do/);
});

Deno.test("broken settings files stop hel with exit 2 and every mistake, in both files, before any request", async () => {
  await using project = await tempProject({
    ".hel/settings.jsonc": '{\n  "acces": "auto",\n  "maxTurns": "ten"\n}\n',
  });
  await Deno.writeTextFile(`${project.root}/hel-home/settings.jsonc`, '{"model": 3,}');
  await using model = scriptedModel([{ text: "never" }]);
  const result = await runHelInProcess(["--base-url", model.url, "hi"], { cwd: project.project });
  assert.equal(result.code, 2, result.stderr);
  assert.equal(model.requests.length, 0);
  const lines = result.stderr.trimEnd().split("\n");
  assert.deepEqual(lines.map((line) => line.replace(/^hel: \S+\/(\S+:\d+:\d+): /, "$1 ")), [
    'settings.jsonc:1:11 model must be a model id, e.g. "deepseek-flash"',
    'settings.jsonc:2:3 unknown setting acces (did you mean "access"?); allowed: model, ' +
    "baseUrl, apiKeyEnv, access, tools, contextFiles, maxTurns, timeout, maxOutputTokens, " +
    "stream, compaction, sandbox, permissions, outputFormat, modelInput, mcp",
    "settings.jsonc:3:15 maxTurns must be a positive whole number, e.g. 50",
  ]);
  assert.match(lines[0]!, /hel-home\/settings\.jsonc:1:11: /);
  assert.match(lines[1]!, /project\/\.hel\/settings\.jsonc:2:3: /);
});
