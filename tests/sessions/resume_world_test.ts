/**
 * Resume after the world changed (reliability catalogue §7 (f), F5): a saved session never
 * carries trust forward, and history that calls tools which are gone stays as it was while new
 * calls to them are refused by name.
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject, toolMessage } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { command, exists, group, hooksJson, trustHooks } from "../_hooks.ts";

const base = (url: string) => ["--base-url", url, "--model", "m", "--access", "auto", "--no-env"];
const sessionOf = (stderr: string) => stderr.match(/^session: (\S+)$/m)![1]!;

Deno.test("hooks changed since the session was saved are not trusted on resume", async () => {
  await using project = await tempProject({
    "a.txt": "alpha\n",
    ".hel/hooks.json": hooksJson([group(undefined, command("touch first-marker"))]),
  });
  await trustHooks(project);
  const read = { name: "read_file", arguments: { path: "a.txt" } };
  await using model = scriptedModel([
    { toolCalls: [read] },
    { text: "one" },
    { toolCalls: [read] },
    { text: "two" },
  ]);
  const first = await runHelInProcess([...base(model.url), "go"], { cwd: project.project });
  assert.equal(first.code, 0, first.stderr);
  assert.ok(await exists(`${project.project}/first-marker`));
  const id = sessionOf(first.stderr);

  await project.write(".hel/hooks.json", hooksJson([group(undefined, command("touch changed"))]));
  const second = await runHelInProcess([...base(model.url), "--resume", id, "again"], {
    cwd: project.project,
  });
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, /project hooks in .* are not trusted and there is no terminal/);
  assert.equal(await exists(`${project.project}/changed`), false);
});

Deno.test("a resumed session whose tools are gone keeps its history; new calls are refused", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([
    {
      toolCalls: [{ name: "write_file", arguments: { path: "w.txt", content: "one" } }],
    },
    { text: "written" },
    {
      toolCalls: [{
        id: "call_gone",
        name: "write_file",
        arguments: { path: "w.txt", content: "two" },
      }],
    },
    { text: "could not" },
  ]);
  const first = await runHelInProcess([...base(model.url), "write"], { cwd: project.project });
  assert.equal(first.code, 0, first.stderr);
  const id = sessionOf(first.stderr);
  const second = await runHelInProcess(
    [...base(model.url), "--tools", "read_file", "--resume", id, "write again"],
    { cwd: project.project },
  );
  assert.equal(second.code, 0, second.stderr);
  const request = model.requests[2]!;
  assert.ok(
    JSON.stringify(request.messages).includes('\\"content\\":\\"one\\"'),
    "the earlier write_file call is still in the history",
  );
  assert.deepEqual(request.toolNames, ["read_file"]);
  assert.match(toolMessage(model, "call_gone"), /^error: unknown tool: write_file; /);
  assert.equal(await project.read("w.txt"), "one");
});
