/**
 * A trusted unsandboxed hook's script in the project, outside `.hel/`, changed between runs (the model may
 * have rewritten it in the earlier run): the next run does not run it until the person has seen
 * the change and approved it on a terminal. The record lives in `$HEL_HOME/hook-files.json`.
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import {
  baseArgs,
  command,
  exists,
  group,
  helRun,
  hooksJson,
  toolMessage,
  trustHooks,
} from "../_hooks.ts";
import { helOnTerminal } from "../_terminal.ts";

const READ = { id: "call_read", name: "read_file", arguments: { path: "a.txt" } };

Deno.test("a hook script changed since the last run is not run until approved on a terminal", async () => {
  await using project = await tempProject({
    "a.txt": "alpha\n",
    "scripts/guard.sh": "touch original-ran\n",
    ".hel/hooks.json": hooksJson([
      group("^read_file$", command("sh scripts/guard.sh", { sandbox: false })),
    ]),
  });
  await trustHooks(project);
  const escaped = `${project.root}/escaped`;

  // Run 1: the hook runs; then the model rewrites its script (the call itself is allowed).
  await using first = scriptedModel([
    { toolCalls: [READ] },
    {
      toolCalls: [{
        name: "write_file",
        arguments: { path: "scripts/guard.sh", content: `touch ${escaped}\n` },
      }],
    },
    { text: "done" },
  ]);
  const one = await helRun(project, first, [], runHelInProcess);
  assert.equal(one.code, 0, one.stderr);
  assert.ok(await exists(`${project.project}/original-ran`));
  const pins = `${project.root}/hel-home/hook-files.json`;
  assert.equal((await Deno.stat(pins)).mode! & 0o777, 0o600);

  // Run 2, no terminal: the changed script is not run, the call is blocked, and hel says why.
  await using second = scriptedModel([{ toolCalls: [READ] }, { text: "done" }]);
  const two = await helRun(project, second, [], runHelInProcess);
  assert.equal(two.code, 0, two.stderr);
  assert.equal(await exists(escaped), false, "the rewritten script ran outside the sandbox");
  assert.match(
    two.stderr,
    /hel: warning: hooks that run scripts\/guard\.sh are not run in this run: the file changed since hel last ran it and was not approved \(no terminal to ask\)/,
  );
  assert.match(
    toolMessage(second, "call_read"),
    /^error: PreToolUse hook blocked read_file: hook 1 was not run: scripts\/guard\.sh changed/,
  );

  // Run 3, on a terminal: the change is shown; a yes lets the hook run, and is remembered.
  await project.write("scripts/guard.sh", "touch approved-ran\n");
  await using third = scriptedModel([{ toolCalls: [READ] }, { text: "done" }]);
  const terminal = helOnTerminal(project, [...baseArgs(third), "go"]);
  await terminal.waitFor("Run hooks with these files? [y/N]");
  assert.match(
    terminal.output(),
    /----- begin scripts\/guard\.sh -----\r?\ntouch approved-ran\r?\n----- end scripts\/guard\.sh -----/,
  );
  await terminal.type("y\n");
  const three = await terminal.finish();
  assert.equal(three.code, 0, three.output);
  assert.ok(await exists(`${project.project}/approved-ran`));

  await Deno.remove(`${project.project}/approved-ran`);
  await using fourth = scriptedModel([{ toolCalls: [READ] }, { text: "done" }]);
  const four = await helRun(project, fourth, [], runHelInProcess);
  assert.equal(four.code, 0, four.stderr);
  assert.doesNotMatch(four.stderr, /not run in this run/);
  assert.ok(await exists(`${project.project}/approved-ran`));
});
