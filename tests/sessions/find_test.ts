/**
 * Sessions people can find: `hel -c`, short ids wherever an id is taken, an ambiguous start of
 * an id, the `hel sessions` table (age, turns, model, first prompt, escaped and cut), and
 * `hel sessions prune`.
 */
import assert from "node:assert/strict";
import { pause, scriptedModel, spawnHel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { ageSession, listedSession, sessionDir } from "../_journal.ts";

const base = (url: string) => ["--base-url", url, "--model", "m", "--access", "auto", "--no-env"];
const sessionOf = (stderr: string) => stderr.match(/^session: (\S+)$/m)![1]!;
const roles = (messages: { role: string; content: string | null }[]) =>
  messages.map((m) => `${m.role}:${m.content ?? ""}`);
const HEADER = /^ID {8}AGE +TURNS {2}MODEL +FIRST PROMPT$/;

/** A copy of session `id` under `copy` (its journal rewritten to name it), recorded by hel. */
async function copySession(project: string, id: string, copy: string) {
  await Deno.mkdir(sessionDir(project, copy));
  const text = await Deno.readTextFile(`${sessionDir(project, id)}/journal.jsonl`);
  await Deno.writeTextFile(`${sessionDir(project, copy)}/journal.jsonl`, text.replaceAll(id, copy));
}

Deno.test("hel -c continues the most recent session with the earlier messages; with --fork-session in a new one", async () => {
  await using project = await tempProject();
  const at = { cwd: project.project };
  await using model = scriptedModel([
    { text: "old answer" },
    { text: "first answer" },
    { text: "second answer" },
    { text: "forked answer" },
  ]);
  const run = (args: string[]) => runHelInProcess([...base(model.url), ...args], at);
  const older = sessionOf((await run(["an older question"])).stderr);
  await ageSession(project.project, older, 1);
  const first = await run(["first question"]);
  assert.equal(first.code, 0, first.stderr);
  const id = sessionOf(first.stderr);

  const continued = await run(["-c", "second question"]);
  assert.equal(continued.code, 0, continued.stderr);
  assert.equal(continued.stdout, "second answer\n");
  assert.equal(sessionOf(continued.stderr), id);
  assert.deepEqual(roles(model.requests[2]!.messages).slice(1), [
    "user:first question",
    "assistant:first answer",
    "user:second question",
  ]);

  const forked = await run(["--continue", "--fork-session", "-i", "third question"]);
  assert.equal(forked.code, 0, forked.stderr);
  assert.notEqual(sessionOf(forked.stderr), id);
  assert.deepEqual(roles(model.requests[3]!.messages).slice(1, 5), [
    "user:first question",
    "assistant:first answer",
    "user:second question",
    "assistant:second answer",
  ]);
  assert.equal((await listedSession(project.project, id))?.turns, 2);
  assert.equal((await listedSession(project.project, sessionOf(forked.stderr)))?.turns, 3);
});

Deno.test("the first 8 characters of an id work in --resume, show, export and delete", async () => {
  await using project = await tempProject();
  const at = { cwd: project.project };
  await using model = scriptedModel([{ text: "first answer" }, { text: "again" }]);
  const first = await runHelInProcess([...base(model.url), "hello there"], at);
  const id = sessionOf(first.stderr);
  const short = id.slice(0, 8);

  const resumed = await runHelInProcess([...base(model.url), "--resume", short, "again?"], at);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(sessionOf(resumed.stderr), id);
  assert.equal(model.requests[1]!.messages[1].content, "hello there");

  const shown = await runHelInProcess(["sessions", "show", short], at);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, new RegExp(`^session ${id} \\(created `));
  const json = await runHelInProcess(["sessions", "show", `${short}-`, "--json"], at);
  assert.equal(JSON.parse(json.stdout).session_id, id);
  const exported = await runHelInProcess(["sessions", "export", short], at);
  assert.match(exported.stdout, new RegExp(`^# Session ${id}\n`));

  const deleted = await runHelInProcess(["sessions", "delete", short], at);
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.equal(deleted.stdout, `Deleted session ${id}.\n`);
  // hel's record of it goes too: a folder forged later under that id is not resumed.
  assert.deepEqual([...Deno.readDirSync(`${project.root}/hel-home/session-records`)], []);
  const gone = await runHelInProcess([...base(model.url), "--resume", short, "x"], at);
  assert.equal(gone.code, 2);
  assert.match(gone.stderr, new RegExp(`^hel: no session ${short} in this project`, "m"));
});

Deno.test("a start of an id that names two sessions is refused with both; a longer one is taken", async () => {
  await using project = await tempProject();
  const at = { cwd: project.project };
  await using model = scriptedModel([{ text: "one" }]);
  const id = sessionOf((await runHelInProcess([...base(model.url), "hello"], at)).stderr);
  const twin = `${id.slice(0, 9)}${id[9] === "0" ? "1" : "0"}${id.slice(10)}`;
  await copySession(project.project, id, twin);

  const short = id.slice(0, 8);
  const commands = [
    ["sessions", "show", short],
    ["sessions", "delete", short],
    [...base(model.url), "--resume", short, "-i", "x"],
  ];
  for (const words of commands) {
    const result = await runHelInProcess(words, at);
    assert.equal(result.code, 2, `${words.join(" ")}: ${result.stderr}`);
    const [a, b] = [id, twin].sort();
    assert.match(
      result.stderr,
      new RegExp(
        `^hel: session id ${short} is ambiguous: it starts 2 sessions of this ` +
          `project \\(${a}, ${b}\\); give more of the id$`,
        "m",
      ),
    );
  }
  const longer = await runHelInProcess(["sessions", "show", id.slice(0, 10)], at);
  assert.equal(longer.code, 0, longer.stderr);
  assert.match(longer.stdout, new RegExp(`^session ${id} `));
  for (
    const [given, message] of [
      ["abc", /invalid session id "abc" \(expected the id hel sessions shows, its first 8/],
      // Upper case only where the id has a letter (a start of eight digits has none to change).
      [`${id.slice(0, 7)}A`, /write it in lowercase/],
    ]
  ) {
    const refused = await runHelInProcess(["sessions", "show", given as string], at);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, message as RegExp);
  }
});

Deno.test("hel sessions is a table: short id, age, turns, model, first prompt escaped and cut to fit", async () => {
  await using project = await tempProject();
  const at = { cwd: project.project };
  await using model = scriptedModel([{ text: "a" }, { text: "b" }, { text: "c" }]);
  const prompt = `fix the \x1b[31mred\x1b[0m\n\tbuild ${"and more ".repeat(30)}`;
  const old = sessionOf((await runHelInProcess([...base(model.url), prompt], at)).stderr);
  await runHelInProcess([...base(model.url), "--resume", old, "one more"], at);
  await ageSession(project.project, old, 50);
  const recent = await runHelInProcess(
    ["--base-url", model.url, "--model", "deepseek-pro", "--no-env", "short one"],
    at,
  );
  const id = sessionOf(recent.stderr);

  const list = await runHelInProcess(["sessions"], { ...at, unset: ["HEL_API_KEY"] });
  assert.equal(list.code, 0, list.stderr);
  const lines = list.stdout.trimEnd().split("\n");
  assert.match(lines[0]!, HEADER);
  assert.equal(lines.length, 3);
  assert.equal(lines[1], `${id.slice(0, 8)}  just now      1  deepseek-pro  short one`);
  assert.ok(lines[2]!.startsWith(`${old.slice(0, 8)}  2 d ago       2  m             fix the `));
  // The escape sequence and the tab are shown as text; the prompt is cut at 120 columns.
  assert.ok(
    lines[2]!.includes("fix the \\u001b[31mred\\u001b[0m build and more and more"),
    lines[2],
  );
  assert.equal(lines[2]!.length, 120);
  assert.ok(lines[2]!.endsWith("…"));
  assert.ok(!list.stdout.includes("\x1b"));
  assert.equal((await runHelInProcess(["sessions", "list"], at)).stdout, list.stdout);
  const rows = JSON.parse((await runHelInProcess(["sessions", "--json"], at)).stdout);
  assert.deepEqual(
    rows.map((row: Record<string, unknown>) => [row.id, row.turns, row.messages, row.model]),
    [[id, 1, 2, "deepseek-pro"], [old, 2, 4, "m"]],
  );
  assert.equal(rows[1].firstPrompt, prompt);
});

Deno.test("hel sessions prune removes what is older than --older-than, keeps one in use, says what it did", async () => {
  await using project = await tempProject();
  const at = { cwd: project.project };
  await using model = scriptedModel([
    { text: "one" },
    { text: "two" },
    { text: "three" },
    async () => {
      await busyHeld;
      return { text: "held" };
    },
  ]);
  let release = () => {};
  const busyHeld = new Promise<void>((resolve) => release = resolve);
  const ids: string[] = [];
  for (const words of ["oldest", "old", "new"]) {
    ids.push(sessionOf((await runHelInProcess([...base(model.url), words], at)).stderr));
  }
  const [oldest, old, recent] = ids as [string, string, string];
  await ageSession(project.project, oldest, 24 * 40);
  const busy = spawnHel(project, [...base(model.url), "--resume", old, "-i", "go on"]);
  try {
    while (model.requests.length < 4) await pause(20);
    // As a chat left open for a month: in use, its last entry long ago.
    await ageSession(project.project, old, 24 * 31);

    const dry = await runHelInProcess(
      ["sessions", "prune", "--older-than", "30d", "--dry-run"],
      at,
    );
    assert.equal(dry.code, 0, dry.stderr);
    const dryLines = dry.stdout.trimEnd().split("\n");
    assert.equal(dryLines[0], "Would remove 1 session last written more than 30 days ago:");
    assert.match(dryLines[1]!, HEADER);
    assert.match(dryLines[2]!, new RegExp(`^${oldest.slice(0, 8)}  40 d ago +1  m +oldest$`));
    assert.equal(dryLines[3], `Kept 1 session in use by another hel process: ${old.slice(0, 8)}`);
    assert.equal(dryLines.length, 4);
    assert.ok(await listedSession(project.project, oldest));

    const pruned = await runHelInProcess(["sessions", "prune", "--older-than", "30d"], at);
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.match(pruned.stdout, /^Removed 1 session last written more than 30 days ago:\n/);
    assert.match(pruned.stdout, new RegExp(`\nKept 1 session in use .*: ${old.slice(0, 8)}\n$`));
  } finally {
    release();
    await busy.output();
  }
  await assert.rejects(() => Deno.stat(sessionDir(project.project, oldest)), Deno.errors.NotFound);
  assert.ok(await listedSession(project.project, old));
  assert.ok(await listedSession(project.project, recent));
  const nothing = await runHelInProcess(["sessions", "prune", "--older-than", "12h"], at);
  assert.equal(
    nothing.stdout,
    "No session of this project was last written more than 12 hours ago.\n",
  );
  for (const wrong of ["30", "30x", "0d", "-3d"]) {
    const refused = await runHelInProcess(["sessions", "prune", "--older-than", wrong], at);
    assert.equal(refused.code, 2, wrong);
    assert.match(
      refused.stderr,
      /--older-than.*a whole number and a unit, d \(days\), h \(hours\)/,
    );
  }
  const missing = await runHelInProcess(["sessions", "prune"], at);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--older-than/);
});
