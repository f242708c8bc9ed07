/**
 * A turn that ends without an answer while hel is still running (the model call limit, the
 * repeated-failure stop, a model API that keeps failing, Ctrl-C) is saved too, closed by a note
 * that says so: the calls that ran stay in the session, and a resume knows what they did. An
 * interrupt by the person is recorded as `[interrupted by the person]`.
 */
import assert from "node:assert/strict";
import { eventually, scriptedModel, spawnHel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { listedSession } from "../_journal.ts";

const base = (url: string) => ["--base-url", url, "--model", "m", "--access", "auto", "--no-env"];
const sessionOf = (stderr: string) => stderr.match(/^session: (\S+)$/m)![1]!;
const roles = (messages: { role: string; content: string | null }[]) =>
  messages.map((m) => `${m.role}:${m.content ?? ""}`);

Deno.test("a turn stopped by --max-turns is saved with a closing note, and resume carries its calls", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([
    { toolCalls: [{ name: "write_file", arguments: { path: "made.txt", content: "made\n" } }] },
    { toolCalls: [{ name: "read_file", arguments: { path: "made.txt" } }] },
    { text: "I wrote made.txt earlier" },
  ]);
  const first = await runHelInProcess([...base(model.url), "--max-turns", "2", "make it"], {
    cwd: project.project,
  });
  assert.equal(first.code, 1, first.stderr);
  assert.match(first.stderr, /hel: stopped after 2 model calls without a final answer/);
  assert.equal(await project.read("made.txt"), "made\n");
  const id = sessionOf(first.stderr);

  const row = await listedSession(project.project, id);
  assert.deepEqual([row?.busy, row?.messages, row?.turns], [false, 6, 1]);

  const second = await runHelInProcess([...base(model.url), "--resume", id, "what did you do?"], {
    cwd: project.project,
  });
  assert.equal(second.code, 0, second.stderr);
  const resumed = roles(model.requests[2]!.messages).slice(1);
  assert.deepEqual(resumed, [
    "user:make it",
    "assistant:",
    "tool:wrote 5 bytes to made.txt",
    "assistant:",
    "tool:made\n",
    "assistant:[hel] This turn ended without an answer (stopped after 2 model calls without a " +
    "final answer; raise --max-turns to allow more, or split the task); the tool calls and " +
    "results above are what happened before it ended.",
    "user:what did you do?",
  ]);
});

Deno.test("a model API that keeps failing still leaves the turn's calls in the session", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([
    { toolCalls: [{ name: "write_file", arguments: { path: "made.txt", content: "made\n" } }] },
    { fail: 500, retryAfterMs: 1 },
    { fail: 500, retryAfterMs: 1 },
    { fail: 500, retryAfterMs: 1 },
    { fail: 500, retryAfterMs: 1 },
    { fail: 500, retryAfterMs: 1 },
    { text: "resumed" },
  ]);
  const first = await runHelInProcess([...base(model.url), "make it"], { cwd: project.project });
  assert.equal(first.code, 1, first.stderr);
  const id = sessionOf(first.stderr);
  const second = await runHelInProcess([...base(model.url), "--resume", id, "again"], {
    cwd: project.project,
  });
  assert.equal(second.code, 0, second.stderr);
  const resumed = roles(model.requests.at(-1)!.messages).slice(1);
  assert.equal(resumed[2], "tool:wrote 5 bytes to made.txt");
  assert.match(resumed[3]!, /^assistant:\[hel\] This turn ended without an answer \(model API/);
  assert.equal(resumed[4], "user:again");
});

Deno.test("Ctrl-C is recorded as [interrupted by the person], and resume carries it with the calls", async () => {
  await using project = await tempProject();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  let reached = false;
  await using model = scriptedModel([
    { toolCalls: [{ name: "write_file", arguments: { path: "made.txt", content: "made\n" } }] },
    async () => {
      reached = true;
      await held; // held open until hel is interrupted
      return { text: "too late" };
    },
    { text: "I wrote made.txt before you stopped me" },
  ]);
  const child = spawnHel(project, [...base(model.url), "make it"]);
  await eventually(() => reached, "the second request");
  child.kill("SIGINT");
  const first = await child.output();
  release();
  const stderr = new TextDecoder().decode(first.stderr);
  assert.equal(first.code, 130, stderr);
  const id = sessionOf(stderr);

  const second = await runHelInProcess([...base(model.url), "--resume", id, "what happened?"], {
    cwd: project.project,
  });
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(roles(model.requests[2]!.messages).slice(1), [
    "user:make it",
    "assistant:",
    "tool:wrote 5 bytes to made.txt",
    "assistant:[interrupted by the person]",
    "user:what happened?",
  ]);
});
