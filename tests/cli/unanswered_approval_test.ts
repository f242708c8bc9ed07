/**
 * `confirm` without a terminal: a call that needs approval cannot get it. The person is told
 * once per run, on stderr, what happened and how to let such calls run; the model hears of each
 * refused call in its result.
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject, toolMessage } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const NOTICE =
  "hel: a tool call needed approval and no one could answer; use --access auto or an allow rule";

const write = (id: string, path: string) => ({
  id,
  name: "write_file",
  arguments: { path, content: "x" },
});

Deno.test("confirm without a terminal says once that no one could approve, however many calls", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([
    { toolCalls: [write("call_a", "a.txt"), write("call_b", "b.txt")] },
    { toolCalls: [write("call_c", "c.txt")] },
    { text: "could not write" },
  ]);
  const run = await runHelInProcess(["--base-url", model.url, "--access", "confirm", "go"], {
    cwd: project.project,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr.split("\n").filter((line) => line === NOTICE).length, 1, run.stderr);
  for (const id of ["call_a", "call_b", "call_c"]) {
    assert.match(toolMessage(model, id), /approval=unavailable\): nobody was available/);
  }
  await assert.rejects(Deno.stat(`${project.project}/a.txt`));
});

Deno.test("answers that run out count as no one answering; answered calls say nothing", async () => {
  await using project = await tempProject();
  await Deno.writeTextFile(`${project.root}/answers.json`, "[true]");
  await using model = scriptedModel([
    { toolCalls: [write("call_yes", "a.txt")] },
    { toolCalls: [write("call_none", "b.txt")] },
    { text: "done" },
  ]);
  const args = ["--base-url", model.url, "--approval-input", `${project.root}/answers.json`];
  const run = await runHelInProcess([...args, "go"], { cwd: project.project });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await Deno.readTextFile(`${project.project}/a.txt`), "x");
  const notices = run.stderr.split("\n").filter((line) => line === NOTICE);
  assert.equal(notices.length, 1, run.stderr);
  // Said when it happened: after the first call's line, before the second's.
  assert.ok(run.stderr.indexOf(NOTICE) > run.stderr.indexOf('[tool] write_file {"path":"a.txt"'));

  await using auto = scriptedModel([{ toolCalls: [write("call_auto", "c.txt")] }, { text: "ok" }]);
  const allowed = await runHelInProcess(["--base-url", auto.url, "--access", "auto", "go"], {
    cwd: project.project,
  });
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.doesNotMatch(allowed.stderr, /no one could answer/);
});
