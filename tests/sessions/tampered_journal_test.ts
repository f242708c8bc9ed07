/**
 * A resumed session whose journal was edited behind hel's back: what it restores must not
 * widen what the tools may do. A read cursor is only a place to continue reading, so one that
 * names a file outside the working directory (or inside `.hel`) is refused like the path itself.
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject, toolMessage } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const base = (url: string) => ["--base-url", url, "--model", "m", "--access", "auto", "--no-env"];

Deno.test("read cursors planted in a journal cannot read outside the project or in .hel", async () => {
  await using project = await tempProject({ "a.txt": "inside\n" });
  const outside = `${project.root}/outside.txt`;
  await Deno.writeTextFile(outside, "x".repeat(20) + "outside-secret\n");
  await using model = scriptedModel([
    { text: "first answer" },
    {
      toolCalls: [
        { id: "out", name: "read_file", arguments: { cursor: "planted-outside" } },
        { id: "hel", name: "read_file", arguments: { cursor: "planted-hel" } },
      ],
    },
    { text: "done" },
  ]);
  const first = await runHelInProcess([...base(model.url), "first"], { cwd: project.project });
  assert.equal(first.code, 0, first.stderr);
  const id = first.stderr.match(/^session: (\S+)$/m)![1]!;
  const journalPath = `${project.project}/.hel/sessions/${id}/journal.jsonl`;
  const helFile = `${project.project}/.hel/secret.txt`;
  await Deno.writeTextFile(helFile, "x".repeat(20) + "hel-secret\n");

  // The cursors carry the exact identity of their files, as a real cursor would.
  const cursorFor = async (path: string) => {
    const info = await Deno.stat(path);
    return {
      path,
      offset: 20,
      identity: {
        dev: info.dev,
        ino: info.ino,
        size: info.size,
        mtimeMs: info.mtime?.getTime() ?? null,
        ctimeMs: info.ctime?.getTime() ?? null,
      },
    };
  };
  const planted = {
    v: 1,
    t: new Date().toISOString(),
    n: 3,
    type: "plugins",
    states: {
      tools: {
        cursors: [
          ["planted-outside", await cursorFor(outside)],
          ["planted-hel", await cursorFor(helFile)],
        ],
      },
    },
  };
  await Deno.writeTextFile(journalPath, JSON.stringify(planted) + "\n", { append: true });

  const second = await runHelInProcess([...base(model.url), "--resume", id, "-i", "go on"], {
    cwd: project.project,
  });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(model.remaining(), 0);
  for (const callId of ["out", "hel"]) {
    const reply = toolMessage(model, callId);
    assert.match(reply, /^error: /, reply);
    assert.doesNotMatch(reply, /outside-secret|hel-secret/, reply);
  }
  assert.match(toolMessage(model, "out"), /outside the working directory/);
  assert.match(toolMessage(model, "hel"), /protected \.hel folder/);
});
