/**
 * SIGKILL at many points of resumed turns (after each request of a turn, with some jitter):
 * whatever the moment, the session stays idle and whole. A file of its own: its sixteen killed
 * hel processes take seconds, which then overlap the other session tests.
 */
import assert from "node:assert/strict";
import { pause, scriptedModel, spawnHel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { listedSession } from "../_journal.ts";

const base = (url: string) => ["--base-url", url, "--model", "m", "--access", "auto", "--no-env"];
const sessionOf = (stderr: string) => stderr.match(/^session: (\S+)$/m)![1]!;

Deno.test("SIGKILL at many points of turns never leaves a damaged or busy session", async () => {
  await using project = await tempProject({ "notes.txt": "alpha\n" });
  // Three tool calls per user turn, then an answer; enough turns for every run below.
  const play = (request: { messages: { role: string }[] }) => {
    const lastUser = request.messages.findLastIndex((m) => m.role === "user");
    const results = request.messages.slice(lastUser).filter((m) => m.role === "tool").length;
    return results < 3
      ? { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] }
      : { text: "turn done" };
  };
  await using model = scriptedModel(Array.from({ length: 400 }, () => play));
  const first = await runHelInProcess([...base(model.url), "start"], { cwd: project.project });
  assert.equal(first.code, 0, first.stderr);
  const id = sessionOf(first.stderr);
  // Kill after the k-th request of a turn has been answered (k = 4 is the final answer, so
  // the kill lands around the snapshot save), plus a little jitter to vary the moment.
  for (const k of [1, 2, 3, 4]) {
    for (const jitter of [0, 2, 5, 10]) {
      const target = model.requests.length + k;
      const child = spawnHel(project, [
        ...base(model.url),
        "--resume",
        id,
        "-i",
        `turn k=${k} jitter=${jitter}`,
      ]);
      while (model.requests.length < target) await pause(1);
      await pause(jitter);
      try {
        child.kill("SIGKILL");
      } catch { /* it already finished its turn */ }
      await child.output();
      // Whatever the moment, the session is idle and its snapshot reads as a whole conversation.
      const row = await listedSession(project.project, id);
      const at = `k=${k} jitter=${jitter}: ${JSON.stringify(row)}`;
      assert.ok(row && !row.busy && row.problem === undefined && row.messages! > 0, at);
    }
  }
  const last = await runHelInProcess([...base(model.url), "--resume", id, "-i", "finish"], {
    cwd: project.project,
  });
  assert.equal(last.code, 0, last.stderr);
  assert.equal(last.stdout, "turn done\n");
});
