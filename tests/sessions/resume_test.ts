/**
 * Sessions end to end: journals written as turns go, --resume (with and without an id), the
 * busy lock, damaged snapshots of older hels, `hel sessions`, and a SIGKILL in the middle of a
 * turn (SIGKILL at many points of a turn: sigkill_test.ts).
 */
import assert from "node:assert/strict";
import { scriptedModel, spawnHel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { CRASH_NOTE } from "../../agent/session/replay.ts";
import { asSnapshotSession, journalEntries, listedSession, savedSession } from "../_journal.ts";

const base = (url: string) => ["--base-url", url, "--model", "m", "--access", "auto", "--no-env"];
const sessionOf = (stderr: string) => stderr.match(/^session: (\S+)$/m)![1]!;
const roles = (messages: { role: string; content: string | null }[]) =>
  messages.map((m) => `${m.role}:${m.content ?? ""}`);

/** Waits for the gate, but fails instead of hanging when hel exits before reaching it. */
async function reachedOrExited(gate: Promise<void>, child: Deno.ChildProcess, what: string) {
  await Promise.race([
    gate,
    child.status.then((status) => {
      throw new Error(`hel exited (code ${status.code}) before ${what}`);
    }),
  ]);
}

/** A promise the test resolves by hand. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => open = resolve);
  return { open, opened };
}

Deno.test("the resumed request has the earlier turns and the current system message", async () => {
  await using project = await tempProject({ "HEL.md": "Old context." });
  await using model = scriptedModel([{ text: "first answer" }, { text: "second answer" }, {
    text: "third answer",
  }]);
  const first = await runHelInProcess([...base(model.url), "first question"], {
    cwd: project.project,
  });
  assert.equal(first.code, 0, first.stderr);
  const id = sessionOf(first.stderr);
  const path = `${project.project}/.hel/sessions/${id}/journal.jsonl`;
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  const entries = await journalEntries(project.project, id);
  assert.ok(entries.every((entry) => entry.v === 1 && typeof entry.t === "string"));
  assert.equal(entries[0].session_id, id);
  assert.deepEqual(entries.map((entry) => entry.type), [
    "session",
    "run",
    "system",
    "plugins",
    "message",
    "message",
    "turn_end",
  ]);
  assert.deepEqual(roles((await savedSession(project.project, id)).messages), [
    "user:first question",
    "assistant:first answer",
  ]);

  await project.write("HEL.md", "New context.");
  const second = await runHelInProcess([
    ...base(model.url),
    "--resume",
    id,
    "-i",
    "second question",
  ], {
    cwd: project.project,
  });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.stdout, "second answer\n");
  assert.equal(sessionOf(second.stderr), id);
  const resumed = model.requests[1]!.messages;
  assert.equal(resumed[0].role, "system");
  assert.match(resumed[0].content, /New context\./);
  assert.doesNotMatch(resumed[0].content, /Old context\./);
  assert.deepEqual(roles(resumed).slice(1), [
    "user:first question",
    "assistant:first answer",
    "user:second question",
  ]);

  // --resume alone continues the most recent session of this project.
  const third = await runHelInProcess([...base(model.url), "--resume", "-i", "third question"], {
    cwd: project.project,
  });
  assert.equal(third.code, 0, third.stderr);
  assert.equal(sessionOf(third.stderr), id);
  assert.equal(model.requests[2]!.messages.length, 6);
  assert.equal(model.remaining(), 0);

  const list = await runHelInProcess(["sessions"], {
    cwd: project.project,
    unset: ["HEL_API_KEY"],
  });
  assert.equal(list.code, 0, list.stderr);
  assert.equal(
    list.stdout,
    "ID        AGE       TURNS  MODEL  FIRST PROMPT\n" +
      `${id.slice(0, 8)}  just now      3  m      first question\n`,
  );
  const row = await listedSession(project.project, id);
  assert.equal(row?.messages, 6); // the system message is not counted
  assert.match(row?.updatedAt ?? "", /^\d{4}-\d\d-\d\dT/);
});

Deno.test("a session in use is refused by --resume and delete, listed busy, then free", async () => {
  await using project = await tempProject();
  const hold = gate();
  const reached = gate();
  await using model = scriptedModel([{ text: "saved" }, async () => {
    reached.open();
    await hold.opened;
    return { text: "finished" };
  }]);
  const first = await runHelInProcess([...base(model.url), "hello"], { cwd: project.project });
  const id = sessionOf(first.stderr);
  const busy = spawnHel(project, [...base(model.url), "--resume", id, "-i", "go on"]);
  try {
    await reachedOrExited(reached.opened, busy, "the held request");

    const refused = await runHelInProcess([...base(model.url), "--resume", id, "-i", "me too"], {
      cwd: project.project,
    });
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      new RegExp(
        `hel: session ${id} is already in use by another hel process \\(pid ${busy.pid}\\)`,
      ),
    );
    const list = await runHelInProcess(["sessions"], { cwd: project.project });
    assert.match(list.stdout, new RegExp(`^${id.slice(0, 8)} .* \\(in use\\) hello$`, "m"));
    const deleteBusy = await runHelInProcess(["sessions", "delete", id], { cwd: project.project });
    assert.equal(deleteBusy.code, 2);
    assert.match(deleteBusy.stderr, /in use by another hel process/);
  } catch (error) {
    busy.kill("SIGKILL"); // never leave the held process behind a failed assertion
    throw error;
  } finally {
    hold.open();
  }
  const output = await busy.output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.equal(new TextDecoder().decode(output.stdout), "finished\n");
  assert.match(
    (await runHelInProcess(["sessions"], { cwd: project.project })).stdout,
    new RegExp(`^${id.slice(0, 8)}  just now +2  m +hello$`, "m"),
  );
  const deleted = await runHelInProcess(["sessions", "delete", id], { cwd: project.project });
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.equal(deleted.stdout, `Deleted session ${id}.\n`);
  await assert.rejects(
    () => Deno.stat(`${project.project}/.hel/sessions/${id}`),
    Deno.errors.NotFound,
  );
  assert.equal(
    (await runHelInProcess(["sessions"], { cwd: project.project })).stdout,
    "No sessions in this project.\n",
  );
  assert.equal(model.remaining(), 0);
});

Deno.test("a damaged snapshot of an older hel is refused with a clear error and left as it is", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "one" }]);
  const first = await runHelInProcess([...base(model.url), "hello"], { cwd: project.project });
  const id = sessionOf(first.stderr);
  const path = await asSnapshotSession(project.project, id);
  const valid = JSON.parse(await Deno.readTextFile(path));
  const damages: [string, RegExp][] = [
    ['{"schema_version": 1, "messages": [{"role": "us\u0000\u0000', /not valid JSON/],
    [
      JSON.stringify({
        ...valid,
        messages: [...valid.messages, { role: "tool", tool_call_id: "nope", content: "x" }],
      }),
      /tool result has no matching call/,
    ],
    [
      JSON.stringify({ ...valid, messages: valid.messages.slice(0, 2) }),
      /completed assistant answer/,
    ],
  ];
  for (const [text, why] of damages) {
    await Deno.writeTextFile(path, text);
    const result = await runHelInProcess([...base(model.url), "--resume", id, "-i", "again"], {
      cwd: project.project,
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`session ${id} cannot be resumed: .*snapshot\\.json is damaged`),
    );
    assert.match(result.stderr, why);
    assert.match(result.stderr, /left as it is/);
    assert.equal(await Deno.readTextFile(path), text);
    const list = await runHelInProcess(["sessions"], { cwd: project.project });
    assert.match(
      list.stdout,
      new RegExp(`^${id.slice(0, 8)}  - +- +- +unreadable: snapshot\\.json: `, "m"),
    );
  }
  assert.equal(model.requests.length, 1);
});

Deno.test("SIGKILL during a model request: resume keeps the turn's call and result, closed by a note", async () => {
  await using project = await tempProject({ "notes.txt": "alpha\n" });
  const reached = gate();
  const never = gate();
  await using model = scriptedModel([
    { text: "turn one done" },
    { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] },
    async () => {
      reached.open();
      await never.opened; // hel is killed while it waits for this answer
      return { text: "never delivered" };
    },
    { text: "turn three done" },
  ]);
  const first = await runHelInProcess([...base(model.url), "turn one"], { cwd: project.project });
  assert.equal(first.code, 0, first.stderr);
  const id = sessionOf(first.stderr);
  const child = spawnHel(project, [...base(model.url), "--resume", id, "-i", "turn two"]);
  // The tool has run; its result is in memory only.
  await reachedOrExited(reached.opened, child, "the held request");
  child.kill("SIGKILL");
  const killed = await child.output();
  assert.equal(killed.signal, "SIGKILL");
  never.open();

  const row = await listedSession(project.project, id);
  assert.equal(row?.busy, false);
  assert.equal(row?.messages, 5);
  assert.equal(row?.turns, 2);

  const third = await runHelInProcess([...base(model.url), "--resume", id, "-i", "turn three"], {
    cwd: project.project,
  });
  assert.equal(third.code, 0, third.stderr);
  assert.equal(third.stdout, "turn three done\n");
  assert.deepEqual(roles(model.requests[3]!.messages).slice(1), [
    "user:turn one",
    "assistant:turn one done",
    "user:turn two",
    "assistant:",
    "tool:alpha\n",
    `assistant:${CRASH_NOTE}`,
    "user:turn three",
  ]);
  assert.equal(model.remaining(), 0);
});

Deno.test("flag and id checks are usage errors", async () => {
  await using project = await tempProject();
  const cases: [string[], RegExp][] = [
    [["--compact-at", "900", "-i", "x"], /--compact-at and --keep-recent go together/],
    [["--compact-at", "900", "--keep-recent", "900", "-i", "x"], /must be below --compact-at/],
    [
      ["--context-window", "9000", "--compact-at", "5000", "--keep-recent", "9", "-i", "x"],
      /--compact-at \(5000\) must leave room for --max-output-tokens \(8192\).*at most 808/,
    ],
    [
      ["--no-compaction", "--compact-at", "9", "--keep-recent", "1", "-i", "x"],
      /cannot be combined/,
    ],
    [["--resume", "fix the bug"], /--resume: invalid session id "fix the bug".*hel -c "</],
    [["--resume", "0b7d3a1", "-i", "x"], /invalid session id "0b7d3a1" .*first 8 characters/],
    [["--resume", "-i", "x"], /no saved session yet/],
    [["-c", "-i", "x"], /no saved session yet to continue/],
    [["--continue", "--resume", "0b7d3a1e", "-i", "x"], /--continue .* or --resume .*not both/],
    [["--fork-session", "-i", "x"], /--fork-session needs --continue or --resume/],
    [["--resume", "0B7D3A1E-5C1F-4E0A-9A51-3C1C2F0D9E11", "-i", "x"], /lowercase/],
    [["--resume", "0b7d3a1e-5c1f-4e0a-9a51-3c1c2f0d9e11", "-i", "x"], /no session 0b7d3a1e/],
    [["sessions", "delete", "nope"], /invalid session id "nope"/],
  ];
  for (const [args, message] of cases) {
    const result = await runHelInProcess(["--base-url", "http://127.0.0.1:9/v1", ...args], {
      cwd: project.project,
    });
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, message);
  }
});

Deno.test("a symlinked .hel/sessions or a file named .hel is refused; nothing is written through it", async () => {
  await using project = await tempProject();
  const elsewhere = `${project.root}/elsewhere`;
  await Deno.mkdir(elsewhere);
  await Deno.mkdir(`${project.project}/.hel`);
  await Deno.symlink(elsewhere, `${project.project}/.hel/sessions`);
  const args = ["--base-url", "http://127.0.0.1:9/v1", "--model", "m", "-i", "x"];
  const run = await runHelInProcess(args, { cwd: project.project });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /^hel: .*\.hel\/sessions must be a real directory \(found a symlink/m);
  assert.deepEqual([...Deno.readDirSync(elsewhere)], []);
  for (const words of [["sessions"], ["--resume", "-i", "x"]]) {
    const refused = await runHelInProcess([...args.slice(0, 4), ...words], {
      cwd: project.project,
    });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /\.hel\/sessions must be a real directory/);
  }

  await Deno.remove(`${project.project}/.hel`, { recursive: true });
  await Deno.writeTextFile(`${project.project}/.hel`, "not a folder");
  const file = await runHelInProcess(args, { cwd: project.project });
  assert.equal(file.code, 2, file.stderr);
  assert.match(file.stderr, /^hel: .*\/\.hel must be a real directory .*move it away$/m);
  assert.doesNotMatch(file.stderr, /internal error|^ {4}at /m);
});

Deno.test("a server that reuses tool call ids across responses still gets its session saved and resumed", async () => {
  await using project = await tempProject({ "notes.txt": "alpha\n" });
  const call = { id: "call_0", name: "read_file", arguments: { path: "notes.txt" } };
  await using model = scriptedModel([
    { toolCalls: [call] },
    { toolCalls: [call] },
    { text: "read twice" },
    { text: "resumed" },
  ]);
  const first = await runHelInProcess([...base(model.url), "read it twice"], {
    cwd: project.project,
  });
  assert.equal(first.code, 0, first.stderr);
  assert.doesNotMatch(first.stderr, /not saved/);
  const id = sessionOf(first.stderr);
  const resumed = await runHelInProcess([...base(model.url), "--resume", id, "-i", "again"], {
    cwd: project.project,
  });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(model.requests[3]!.messages.length, 8);
  assert.equal(model.remaining(), 0);
});

Deno.test("resuming in a moved project says where the session was made, not that it is damaged", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "one" }]);
  const first = await runHelInProcess([...base(model.url), "hello"], { cwd: project.project });
  const id = sessionOf(first.stderr);
  const moved = `${project.root}/moved`;
  await Deno.rename(project.project, moved);
  const result = await runHelInProcess([...base(model.url), "--resume", id, "-i", "again"], {
    cwd: moved,
  });
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(
      `cannot be resumed: \\S+journal\\.jsonl: it was saved for the project at "${project.project}"`,
    ),
  );
  assert.doesNotMatch(result.stderr, /damaged/);
});

Deno.test("an older hel's snapshot session resumes as a journal; its unfinished save is removed", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "one" }, { text: "two" }, { text: "three" }]);
  const first = await runHelInProcess([...base(model.url), "hello"], { cwd: project.project });
  const id = sessionOf(first.stderr);
  const dir = `${project.project}/.hel/sessions/${id}`;
  await asSnapshotSession(project.project, id);
  const leftover = `${dir}/.snapshot-${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(leftover, '{"schema_version": 1, "mess');
  const resumed = await runHelInProcess([...base(model.url), "--resume", id, "-i", "again"], {
    cwd: project.project,
  });
  assert.equal(resumed.code, 0, resumed.stderr);
  await assert.rejects(() => Deno.stat(leftover), Deno.errors.NotFound);
  assert.deepEqual(roles((await savedSession(project.project, id)).messages), [
    "user:hello",
    "assistant:one",
    "user:again",
    "assistant:two",
  ]);
  // Continued from the journal now: the snapshot is read once.
  await Deno.writeTextFile(`${dir}/snapshot.json`, "not read again");
  const third = await runHelInProcess([...base(model.url), "--resume", id, "-i", "more"], {
    cwd: project.project,
  });
  assert.equal(third.code, 0, third.stderr);
  assert.equal(model.requests[2]!.messages.length, 6);
});

Deno.test("line breaks, U+2028, NUL and lone surrogates in a turn survive save and resume", async () => {
  await using project = await tempProject();
  const odd = "a\nb\r\nc\u2028d\u2029e\u0000f\ud800g\u{1F600}";
  await using model = scriptedModel([
    { toolCalls: [{ name: "bash", arguments: { command: `printf '%s' ${JSON.stringify(odd)}` } }] },
    { text: odd },
    { text: "again" },
  ]);
  const first = await runHelInProcess([...base(model.url), "--sandbox", "off", "go"], {
    cwd: project.project,
  });
  assert.equal(first.code, 0, first.stderr);
  const id = sessionOf(first.stderr);
  const second = await runHelInProcess([...base(model.url), "--resume", id, "more"], {
    cwd: project.project,
  });
  assert.equal(second.code, 0, second.stderr);
  const before = model.requests[1]!.messages.slice(1);
  const after = model.requests[2]!.messages.slice(1);
  assert.deepEqual(after.slice(0, before.length), before);
  assert.equal(after[before.length].content, odd);
});
