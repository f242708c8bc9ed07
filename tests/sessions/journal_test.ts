/**
 * The session journal end to end: hel killed while a tool call runs, a torn last line, a
 * journal from a newer hel, a journal that is a link, `--fork-session`, and `hel sessions show`
 * / `export`.
 */
import assert from "node:assert/strict";
import { eventually, scriptedModel, spawnHel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { CRASH_NOTE, INTERRUPTED_RESULT } from "../../agent/session/replay.ts";
import { journalEntries, listedSession } from "../_journal.ts";

const base = (url: string) => ["--base-url", url, "--model", "m", "--access", "auto", "--no-env"];
const sessionOf = (stderr: string) => stderr.match(/^session: (\S+)$/m)![1]!;
const roles = (messages: { role: string; content: string | null }[]) =>
  messages.map((m) => `${m.role}:${m.content ?? ""}`);
const journalOf = (project: string, id: string) => `${project}/.hel/sessions/${id}/journal.jsonl`;

Deno.test("SIGKILL during a tool call: the calls before it keep their results, it and the next are marked interrupted", async () => {
  await using project = await tempProject({ "notes.txt": "alpha\n" });
  await using model = scriptedModel([
    {
      toolCalls: [
        { id: "call_read", name: "read_file", arguments: { path: "notes.txt" } },
        { id: "call_slow", name: "bash", arguments: { command: "touch started; sleep 20" } },
        { id: "call_after", name: "read_file", arguments: { path: "notes.txt" } },
      ],
    },
    { text: "I will check first" },
  ]);
  const child = spawnHel(project, [...base(model.url), "--sandbox", "off", "three steps"]);
  await eventually(async () => {
    try {
      return (await Deno.stat(`${project.project}/started`)).isFile;
    } catch {
      return false;
    }
  }, "the slow call to start");
  child.kill("SIGKILL");
  const killed = await child.output();
  assert.equal(killed.signal, "SIGKILL");
  const id = sessionOf(new TextDecoder().decode(killed.stderr));

  const resumed = await runHelInProcess([...base(model.url), "--resume", id, "-i", "go on"], {
    cwd: project.project,
  });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(resumed.stdout, "I will check first\n");
  assert.deepEqual(roles(model.requests[1]!.messages).slice(1), [
    "user:three steps",
    "assistant:",
    "tool:alpha\n",
    `tool:${INTERRUPTED_RESULT}`,
    `tool:${INTERRUPTED_RESULT}`,
    `assistant:${CRASH_NOTE}`,
    "user:go on",
  ]);
  const tools = model.requests[1]!.messages.filter((m) => m.role === "tool");
  assert.deepEqual(tools.map((m) => m.tool_call_id), ["call_read", "call_slow", "call_after"]);
  // The repair is in the journal too: the session reads the same without it being redone.
  const entries = await journalEntries(project.project, id);
  assert.equal(entries.filter((e) => e.message?.content === INTERRUPTED_RESULT).length, 2);
  // Permission decisions are journaled as they are taken, before the call's result.
  const permissions = entries.filter((e) => e.type === "permission");
  assert.deepEqual(permissions.map((e) => e.decision.name), ["read_file", "bash"]);
});

Deno.test("a torn last line is ignored with a warning, cut off, and nothing before it is lost", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "one" }, { text: "two" }]);
  const first = await runHelInProcess([...base(model.url), "hello"], { cwd: project.project });
  const id = sessionOf(first.stderr);
  const path = journalOf(project.project, id);
  await Deno.writeTextFile(path, '{"v":1,"t":"2026-01-01T00:00:00Z","n":9,"type":"mes', {
    append: true,
  });
  const row = await listedSession(project.project, id);
  assert.deepEqual([row?.busy, row?.problem, row?.messages], [false, undefined, 2]);

  const second = await runHelInProcess([...base(model.url), "--resume", id, "-i", "again"], {
    cwd: project.project,
  });
  assert.equal(second.code, 0, second.stderr);
  assert.match(
    second.stderr,
    /hel: warning: .*journal\.jsonl: its last line was cut off mid-write and is ignored/,
  );
  assert.deepEqual(roles(model.requests[1]!.messages).slice(1), [
    "user:hello",
    "assistant:one",
    "user:again",
  ]);
  const text = await Deno.readTextFile(path);
  assert.ok(text.endsWith("\n"));
  for (const line of text.trimEnd().split("\n")) JSON.parse(line);
});

Deno.test("a journal written by a newer hel is refused with a clear message and left as it is", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "one" }]);
  const first = await runHelInProcess([...base(model.url), "hello"], { cwd: project.project });
  const id = sessionOf(first.stderr);
  const path = journalOf(project.project, id);
  await Deno.writeTextFile(path, '{"v":2,"t":"2027-01-01T00:00:00Z","n":3,"type":"new"}\n', {
    append: true,
  });
  const before = await Deno.readTextFile(path);
  const result = await runHelInProcess([...base(model.url), "--resume", id, "-i", "again"], {
    cwd: project.project,
  });
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(
      `session ${id} cannot be resumed: .*written by a newer hel \\(journal version 2; this hel reads version 1\\); update hel`,
    ),
  );
  assert.doesNotMatch(result.stderr, /damaged/);
  assert.equal(await Deno.readTextFile(path), before);
  const list = await runHelInProcess(["sessions"], { cwd: project.project });
  assert.match(
    list.stdout,
    new RegExp(`^${id.slice(0, 8)}  - +- +- +unreadable: journal\\.jsonl: .*newer hel`, "m"),
  );
  assert.equal(model.requests.length, 1);
});

Deno.test("a journal that is a symbolic link is refused and nothing is written through it", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "one" }]);
  const first = await runHelInProcess([...base(model.url), "hello"], { cwd: project.project });
  const id = sessionOf(first.stderr);
  const journal = `${project.project}/.hel/sessions/${id}/journal.jsonl`;
  const elsewhere = `${project.root}/elsewhere.jsonl`;
  await Deno.rename(journal, elsewhere);
  await Deno.symlink(elsewhere, journal);
  const before = await Deno.readTextFile(elsewhere);
  const result = await runHelInProcess([...base(model.url), "--resume", id, "-i", "again"], {
    cwd: project.project,
  });
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, new RegExp(`session ${id} cannot be resumed: .*symbolic link`));
  assert.equal(await Deno.readTextFile(elsewhere), before);
  const list = await runHelInProcess(["sessions"], { cwd: project.project });
  assert.match(
    list.stdout,
    new RegExp(`^${id.slice(0, 8)}  - +- +- +unreadable: journal\\.jsonl: .*link`, "m"),
  );
  assert.equal(model.requests.length, 1);
});

Deno.test("--fork-session continues in a new session and leaves the old one as it was", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "one" }, { text: "forked answer" }]);
  const first = await runHelInProcess([...base(model.url), "hello"], { cwd: project.project });
  const id = sessionOf(first.stderr);
  const before = await Deno.readTextFile(journalOf(project.project, id));
  const fork = await runHelInProcess(
    [...base(model.url), "--resume", id, "--fork-session", "-i", "branch off"],
    { cwd: project.project },
  );
  assert.equal(fork.code, 0, fork.stderr);
  const forked = sessionOf(fork.stderr);
  assert.notEqual(forked, id);
  assert.deepEqual(roles(model.requests[1]!.messages).slice(1), [
    "user:hello",
    "assistant:one",
    "user:branch off",
  ]);
  assert.equal(await Deno.readTextFile(journalOf(project.project, id)), before);
  const shown = await runHelInProcess(["sessions", "show", forked], { cwd: project.project });
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(
    shown.stdout,
    /\[user\]\nhello\n\n\[assistant\]\none\n\n\[user\]\nbranch off\n\n\[assistant\]\nforked answer\n$/,
  );
  const bare = await runHelInProcess([...base(model.url), "--fork-session", "-i", "x"], {
    cwd: project.project,
  });
  assert.equal(bare.code, 2, bare.stderr);
  assert.match(bare.stderr, /--fork-session needs --continue or --resume/);
});

Deno.test("hel sessions show prints the conversation as text or JSON; export writes Markdown", async () => {
  await using project = await tempProject({ "notes.txt": "alpha ``` beta\n" });
  await using model = scriptedModel([
    { toolCalls: [{ id: "call_1", name: "read_file", arguments: { path: "notes.txt" } }] },
    { text: "It says alpha." },
  ]);
  const first = await runHelInProcess([...base(model.url), "read notes"], { cwd: project.project });
  const id = sessionOf(first.stderr);
  const options = { cwd: project.project, unset: ["HEL_API_KEY"] };
  const text = await runHelInProcess(["sessions", "show", id], options);
  assert.equal(text.code, 0, text.stderr);
  assert.match(
    text.stdout,
    new RegExp(`^session ${id} \\(created \\S+\\)\n\n\\[user\\]\nread notes\n`),
  );
  assert.match(
    text.stdout,
    /\[assistant\]\n→ read_file\(\{"path":"notes.txt"\}\)\n\n\[tool call_1\]\nalpha ``` beta\n/,
  );
  const json = await runHelInProcess(["sessions", "show", id, "--json"], options);
  assert.equal(json.code, 0, json.stderr);
  const value = JSON.parse(json.stdout);
  assert.equal(value.session_id, id);
  assert.deepEqual(roles(value.messages), [
    "user:read notes",
    "assistant:",
    "tool:alpha ``` beta\n",
    "assistant:It says alpha.",
  ]);
  const markdown = await runHelInProcess(
    ["sessions", "export", id, "--format", "markdown"],
    options,
  );
  assert.equal(markdown.code, 0, markdown.stderr);
  assert.match(markdown.stdout, new RegExp(`^# Session ${id}\n`));
  assert.match(markdown.stdout, /## User\n\nread notes\n\n## Assistant\n\n```text\nread_file/);
  assert.match(
    markdown.stdout,
    /### Result of call_1\n\n````text\nalpha ``` beta\n\n````\n\n## Assistant\n\nIt says alpha\.\n$/,
  );
  const wrong = await runHelInProcess(["sessions", "export", id, "--format", "html"], options);
  assert.equal(wrong.code, 2, wrong.stderr);
  assert.match(wrong.stderr, /the only format is markdown/);
});
