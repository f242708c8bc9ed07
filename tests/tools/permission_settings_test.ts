/**
 * Permission rules from the settings files, through the real command line: the person's
 * `$HEL_HOME/settings.jsonc` allows a command prefix, so `confirm` runs it without a question
 * (none could be answered here); a compound command with another part is asked (and so refused
 * without a terminal); the project's `.hel/settings.jsonc` can deny — narrowing needs no trust —
 * and the refusal names the rule and its file to the model.
 *
 * `--output-format stream-json` names the rules that decided in each permission line.
 */
import assert from "node:assert/strict";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { scriptedModel, tempProject, toolMessage } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { linesOf, streamLines } from "../_output_schema.ts";

const SANDBOX = hasBwrap() ? [] : ["--sandbox", "off"];

const bash = (id: string, command: string) => ({
  toolCalls: [{ id, name: "bash", arguments: { command } }],
});

Deno.test("an allow rule in the person's settings runs a command in confirm without a question", async () => {
  await using project = await tempProject();
  await Deno.writeTextFile(
    `${project.root}/hel-home/settings.jsonc`,
    '{\n  // mine\n  "permissions": { "allow": ["bash(echo:*)"] }\n}\n',
  );
  await using model = scriptedModel([
    bash("c1", "echo hi"),
    bash("c2", "echo hi && touch made.txt"),
    { text: "done" },
  ]);
  const result = await runHelInProcess(
    ["--base-url", model.url, "--access", "confirm", ...SANDBOX, "go"],
    { cwd: project.project },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(toolMessage(model, "c1"), "exit=0\nhi\n");
  assert.match(toolMessage(model, "c2"), /^error: permission denied: bash \(access=confirm/);
  await assert.rejects(() => Deno.stat(`${project.project}/made.txt`), Deno.errors.NotFound);
});

Deno.test("a deny rule in the project's settings refuses in auto, naming the rule and its file", async () => {
  await using project = await tempProject({
    ".hel/settings.jsonc": '{ "permissions": { "deny": ["bash(touch:*)"] } }\n',
  });
  await using model = scriptedModel([bash("c1", "echo a; touch made.txt"), { text: "done" }]);
  const result = await runHelInProcess(
    ["--base-url", model.url, "--access", "auto", ...SANDBOX, "go"],
    { cwd: project.project },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    toolMessage(model, "c1"),
    /^error: permission denied: bash is refused by the rule "bash\(touch:\*\)" \(permissions\.deny in [^)]*\.hel\/settings\.jsonc\)/,
  );
  await assert.rejects(() => Deno.stat(`${project.project}/made.txt`), Deno.errors.NotFound);
});

Deno.test("stream-json names the rule and the file that decided each call, valid against the schema", async () => {
  await using project = await tempProject({
    ".hel/settings.jsonc": '{ "permissions": { "deny": ["bash(touch:*)"] } }\n',
  });
  await Deno.writeTextFile(
    `${project.root}/hel-home/settings.jsonc`,
    '{ "permissions": { "allow": ["bash(echo:*)"] } }\n',
  );
  await using model = scriptedModel([
    bash("c1", "echo hi"),
    bash("c2", "touch made.txt"),
    bash("c3", "bash -c 'touch made.txt'"),
    { text: "done" },
  ]);
  const result = await runHelInProcess(
    [
      "--base-url",
      model.url,
      "--access",
      "confirm",
      "--output-format",
      "stream-json",
      ...SANDBOX,
      "go",
    ],
    { cwd: project.project },
  );
  assert.equal(result.code, 0, result.stderr);
  // streamLines checks every line against the schema.
  const decisions = linesOf(streamLines(result.stdout), "system", "permission");
  const byRule = (id: string) => decisions.find((line) => line.tool_use_id === id)?.by_rule;
  assert.deepEqual(byRule("c1"), {
    effect: "allow",
    rules: [{ rule: "bash(echo:*)", source: byRule("c1")?.rules[0]?.source }],
  });
  assert.match(byRule("c1")!.rules[0].source, /hel-home\/settings\.jsonc$/);
  assert.equal(byRule("c2")?.effect, "deny");
  assert.match(byRule("c2")!.rules[0].source, /\.hel\/settings\.jsonc$/);
  assert.deepEqual(
    [byRule("c3")?.effect, byRule("c3")?.uncertain, byRule("c3")?.rules[0].rule],
    ["ask", true, "bash(touch:*)"],
  );
});
