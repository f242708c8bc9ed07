/**
 * Project hooks and trust, end to end: nothing from `.hel/hooks.json` runs before the user
 * trusted exactly those bytes for exactly this project, and the approval lives in $HEL_HOME.
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../../kit/mod.ts";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import {
  baseArgs,
  command,
  EDIT,
  exists,
  group,
  helRun,
  HOOKS_QUESTION,
  hooksJson,
  toolMessage,
  trustHooks,
} from "../_hooks.ts";
import { helOnTerminal } from "../_terminal.ts";

/** A hook that leaves a marker whenever it runs, and blocks edits. */
const BLOCKING_HOOKS = hooksJson([
  group(
    "^search_replace$",
    command("echo ran >> hook-ran.marker; echo 'edits need review: ask the user' >&2; exit 2"),
  ),
]);

Deno.test("a trusted blocking PreToolUse hook refuses the edit; an edited config is asked about again before anything runs", async () => {
  await using project = await tempProject({ "a.txt": "old\n", ".hel/hooks.json": BLOCKING_HOOKS });
  const hash = await sha256Hex(await Deno.readFile(`${project.project}/.hel/hooks.json`));
  const pinned = await runHelInProcess(["trust", "hooks", "--sha256", hash], {
    cwd: project.project,
  });
  assert.equal(pinned.code, 0, pinned.stderr);

  await using model = scriptedModel([{ toolCalls: [EDIT] }, { text: "blocked" }]);
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await project.read("a.txt"), "old\n", "the file is unchanged");
  assert.equal(
    toolMessage(model, "call_edit"),
    "error: PreToolUse hook blocked search_replace: edits need review: ask the user",
  );
  assert.equal(await project.read("hook-ran.marker"), "ran\n");
  assert.equal(model.remaining(), 0);

  // Edit the config: one added byte. The next run must ask before any request or hook.
  await Deno.writeTextFile(`${project.project}/.hel/hooks.json`, BLOCKING_HOOKS + "\n");
  await Deno.remove(`${project.project}/hook-ran.marker`);
  await using second = scriptedModel([{ toolCalls: [EDIT] }, { text: "edited" }]);
  const terminal = helOnTerminal(project, [...baseArgs(second), "-i", "go"]);
  await terminal.waitFor(HOOKS_QUESTION);
  assert.equal(second.requests.length, 0, "no model request before the answer");
  assert.equal(await exists(`${project.project}/hook-ran.marker`), false, "no hook ran");
  assert.match(terminal.output(), /hel: \S*\.hel\/hooks\.json runs 1 hook\r?\n/);
  assert.ok(
    terminal.output().includes("edits need review: ask the user"),
    "the hook's command is shown",
  );
  await terminal.type("n\n");
  const { code, output } = await terminal.finish();
  assert.equal(code, 0, output);
  assert.match(output, /hel: warning: project hooks in .* were not trusted; hooks skipped/);
  // Refused: the run went on without hooks, so the edit happened and no hook ever ran.
  assert.equal(await project.read("a.txt"), "new\n");
  assert.equal(await exists(`${project.project}/hook-ran.marker`), false);
  assert.equal(second.remaining(), 0);
});

Deno.test("untrusted hooks never start without a terminal: a warning, and the run goes on", async () => {
  await using project = await tempProject({ "a.txt": "old\n", ".hel/hooks.json": BLOCKING_HOOKS });
  await using model = scriptedModel([{ toolCalls: [EDIT] }, { text: "edited" }]);
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /hel: warning: project hooks in \S+\/\.hel\/hooks\.json are not trusted and there is no terminal to ask; hooks skipped\. Review them with "hel trust hooks"/,
  );
  assert.equal(await exists(`${project.project}/hook-ran.marker`), false);
  assert.equal(await project.read("a.txt"), "new\n");
  assert.equal(toolMessage(model, "call_edit"), "replaced 1 occurrence in a.txt");
  assert.equal(model.remaining(), 0);
});

Deno.test("approving on the terminal records trust in $HEL_HOME; unchanged bytes are not asked again", async () => {
  await using project = await tempProject({ "a.txt": "old\n", ".hel/hooks.json": BLOCKING_HOOKS });
  await using model = scriptedModel([{ toolCalls: [EDIT] }, { text: "blocked" }]);
  const terminal = helOnTerminal(project, [...baseArgs(model), "-i", "go"]);
  await terminal.waitFor(HOOKS_QUESTION);
  assert.equal(await exists(`${project.project}/hook-ran.marker`), false);
  await terminal.type("y\n");
  const { code, output } = await terminal.finish();
  assert.equal(code, 0, output);
  assert.equal(await project.read("hook-ran.marker"), "ran\n");
  assert.equal(await project.read("a.txt"), "old\n");
  const store = JSON.parse(await Deno.readTextFile(`${project.root}/hel-home/trust.json`));
  assert.equal(store.records.length, 1);
  assert.equal(store.records[0].kind, "hooks");
  assert.equal(store.records[0].project, project.project);
  assert.equal(
    store.records[0].sha256,
    await sha256Hex(await Deno.readFile(`${project.project}/.hel/hooks.json`)),
  );
  const mode = (await Deno.stat(`${project.root}/hel-home/trust.json`)).mode! & 0o777;
  assert.equal(mode, 0o600);
  assert.equal(await exists(`${project.project}/.hel/trust.json`), false, "nothing in the repo");

  // Same bytes: no question (no terminal either), the hook runs again.
  await using again = scriptedModel([{ toolCalls: [EDIT] }, { text: "blocked" }]);
  const run = await helRun(project, again, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /Trust this project|not trusted/);
  assert.equal(await project.read("hook-ran.marker"), "ran\nran\n");
  assert.match(toolMessage(again, "call_edit"), /^error: PreToolUse hook blocked/);
});

Deno.test("one added byte makes the config untrusted again", async () => {
  await using project = await tempProject({ "a.txt": "old\n", ".hel/hooks.json": BLOCKING_HOOKS });
  await trustHooks(project);
  await Deno.writeTextFile(`${project.project}/.hel/hooks.json`, BLOCKING_HOOKS + " ");
  await using model = scriptedModel([{ toolCalls: [EDIT] }, { text: "edited" }]);
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /are not trusted and there is no terminal to ask; hooks skipped/);
  assert.equal(await exists(`${project.project}/hook-ran.marker`), false);
  assert.equal(await project.read("a.txt"), "new\n");
});

Deno.test("a trusted config copied to another project path is not trusted there", async () => {
  await using project = await tempProject({ "a.txt": "old\n", ".hel/hooks.json": BLOCKING_HOOKS });
  await trustHooks(project);
  const copy = `${project.root}/copy`;
  await Deno.mkdir(`${copy}/.hel`, { recursive: true });
  await Deno.copyFile(`${project.project}/.hel/hooks.json`, `${copy}/.hel/hooks.json`);
  await Deno.writeTextFile(`${copy}/a.txt`, "old\n");
  await using model = scriptedModel([{ toolCalls: [EDIT] }, { text: "edited" }]);
  const run = await runHelInProcess([...baseArgs(model), "-i", "go"], {
    cwd: copy,
    env: { HEL_HOME: `${project.root}/hel-home` },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /are not trusted and there is no terminal to ask; hooks skipped/);
  assert.equal(await exists(`${copy}/hook-ran.marker`), false);
  assert.equal(await Deno.readTextFile(`${copy}/a.txt`), "new\n");
});

Deno.test("a trust record planted inside the project is ignored", async () => {
  await using project = await tempProject({ "a.txt": "old\n", ".hel/hooks.json": BLOCKING_HOOKS });
  const sha256 = await sha256Hex(await Deno.readFile(`${project.project}/.hel/hooks.json`));
  const record = { kind: "hooks", project: project.project, sha256, trustedAt: "2026-01-01" };
  const store = JSON.stringify({ version: 1, records: [record] });
  await project.write(".hel/trust.json", store);
  await project.write(".hel/hooks-trust.json", JSON.stringify({ schema_version: 1, ...record }));
  await project.write(".hel/.hel/trust.json", store);
  await using model = scriptedModel([{ toolCalls: [EDIT] }, { text: "edited" }]);
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /not trusted and there is no terminal to ask; hooks skipped/);
  assert.equal(await exists(`${project.project}/hook-ran.marker`), false);
  assert.equal(await project.read("a.txt"), "new\n");
});

Deno.test("an invalid config is reported, every mistake with its place, and skipped before any review", async () => {
  const invalid = '{\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "(", "hooks": [] }\n' +
    '    ],\n    "PostToolUse": [{ "hooks": [{ "type": "command", "command": "x", "timeout": 0 }] }]' +
    "\n  }\n}\n";
  await using project = await tempProject({ "a.txt": "old\n", ".hel/hooks.json": invalid });
  await using model = scriptedModel([{ toolCalls: [EDIT] }, { text: "edited" }]);
  const terminal = helOnTerminal(project, [...baseArgs(model), "-i", "go"]);
  const { code, output } = await terminal.finish();
  assert.equal(code, 0, output);
  assert.ok(!output.includes(HOOKS_QUESTION), "no review of an invalid file");
  assert.match(
    output,
    /hel: warning: \.hel\/hooks\.json is invalid, so hooks are skipped for this run:\r?\n {2}\S+\/\.hel\/hooks\.json:4:20: hooks\.PreToolUse\[0\]\.matcher is not a valid regular expression .*\r?\n {2}\S+\/\.hel\/hooks\.json:6:81: hooks\.PostToolUse\[0\]\.hooks\[0\]\.timeout must be a positive whole number/,
  );
  assert.equal(await project.read("a.txt"), "new\n");
  assert.equal(model.remaining(), 0);
});

Deno.test("a field name in an untrusted hooks.json cannot drive the terminal through a warning", async () => {
  // A cloned repository's file is shown before any trust: its escape sequences stay inert.
  const invalid = '{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", ' +
    '"\\u001b]52;c;cHduZWQ=\\u0007\\u001b[2J": "x"}]}]}}\n';
  await using project = await tempProject({ "a.txt": "old\n", ".hel/hooks.json": invalid });
  await using model = scriptedModel([{ text: "done" }]);
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /unknown field "\\u001b\]52;c;cHduZWQ=\\u0007\\u001b\[2J" in hooks/);
  assert.ok(!run.stderr.includes("\u001b") && !run.stderr.includes("\u0007"), run.stderr);
});

Deno.test("a symlinked hooks.json is refused, not followed", async () => {
  await using project = await tempProject({ "a.txt": "old\n" });
  await Deno.writeTextFile(`${project.root}/elsewhere.json`, BLOCKING_HOOKS);
  await Deno.mkdir(`${project.project}/.hel`);
  await Deno.symlink(`${project.root}/elsewhere.json`, `${project.project}/.hel/hooks.json`);
  await using model = scriptedModel([{ toolCalls: [EDIT] }, { text: "edited" }]);
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /hooks\.json must be a regular file, not a symlink.*; hooks skipped/);
  assert.equal(await exists(`${project.project}/hook-ran.marker`), false);
});
