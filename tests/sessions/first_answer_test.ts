/**
 * A session exists from the model's first answer on: a run that never got one (no key, a
 * server that refuses the key, nothing listening) leaves no session folder and no record, so
 * `hel sessions` is not filled with empty rows. A resumed session is never removed.
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { listedSession, savedSession } from "../_journal.ts";
import { createOpenAIClient } from "../../agent/model/openai_client.ts";

const base = (url: string) => ["--base-url", url, "--model", "m", "--access", "auto", "--no-env"];
const sessionOf = (stderr: string) => stderr.match(/^session: (\S+)$/m)![1]!;

/** What hel left in the project and in its home: session folders and session records. */
async function leftBehind(root: string) {
  const names = async (path: string) => {
    try {
      return (await Array.fromAsync(Deno.readDir(path))).map((entry) => entry.name);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
  };
  return {
    sessions: await names(`${root}/project/.hel/sessions`),
    records: await names(`${root}/hel-home/session-records`),
  };
}

/** A port on 127.0.0.1 nothing listens on (it was free a moment ago). */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test("a run the server refuses with 401 leaves no session; the next one that gets an answer does", async () => {
  await using project = await tempProject();
  const at = { cwd: project.project };
  await using model = scriptedModel([
    { fail: 401, body: JSON.stringify({ error: { message: "invalid api key" } }) },
    { text: "hello back" },
  ]);
  const refused = await runHelInProcess([...base(model.url), "hello"], at);
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /401/);
  // No id is named for a session that was never saved.
  assert.doesNotMatch(refused.stderr, /^session: /m);
  assert.deepEqual(await leftBehind(project.root), { sessions: [], records: [] });
  assert.equal(
    (await runHelInProcess(["sessions"], at)).stdout,
    "No sessions in this project.\n",
  );
  const none = await runHelInProcess([...base(model.url), "-c", "again"], at);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no saved session yet/);

  const answered = await runHelInProcess([...base(model.url), "hello"], at);
  assert.equal(answered.code, 0, answered.stderr);
  const id = sessionOf(answered.stderr);
  const left = await leftBehind(project.root);
  assert.deepEqual(left.sessions, [id]);
  assert.equal(left.records.length, 1);
  assert.equal((await listedSession(project.project, id))?.firstPrompt, "hello");
});

Deno.test("a run against a closed port leaves no session, nor does one without a key", async () => {
  await using project = await tempProject();
  const at = { cwd: project.project };
  const url = `http://127.0.0.1:${closedPort()}/v1`;
  // hel's own client for that URL, with quick retries (the retries themselves are not the subject).
  const model = createOpenAIClient({
    baseURL: url,
    apiKey: "test-key",
    model: "m",
    stream: true,
    requestTimeoutMs: 5_000,
    maxRetries: 1,
    totalTimeoutMs: 10_000,
    backoffMs: 10,
  });
  const refused = await runHelInProcess([...base(url), "hello"], { ...at, model });
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /gave up after 2 attempts/);
  assert.deepEqual(await leftBehind(project.root), { sessions: [], records: [] });

  // A server elsewhere needs a key (one on this machine does not): none, and hel stops at once.
  const keyless = await runHelInProcess([...base("https://models.example.com/v1"), "hello"], {
    ...at,
    unset: ["HEL_API_KEY", "DEEPSEEK_API_KEY"],
  });
  assert.equal(keyless.code, 2, keyless.stderr);
  assert.match(keyless.stderr, /no model API key/);
  assert.deepEqual(await leftBehind(project.root), { sessions: [], records: [] });
});

Deno.test("a resumed session whose request fails stays, with its conversation", async () => {
  await using project = await tempProject();
  const at = { cwd: project.project };
  await using model = scriptedModel([{ text: "first answer" }, { fail: 401 }]);
  const id = sessionOf((await runHelInProcess([...base(model.url), "first"], at)).stderr);
  const failed = await runHelInProcess([...base(model.url), "--resume", id, "second"], at);
  assert.equal(failed.code, 1, failed.stderr);
  assert.deepEqual((await leftBehind(project.root)).sessions, [id]);
  const saved = await savedSession(project.project, id);
  assert.deepEqual(saved.messages.slice(0, 2).map((m) => m.content), ["first", "first answer"]);
});
