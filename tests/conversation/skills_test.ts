/**
 * Skills end to end with the real read_file: the catalog in the system message, loading by
 * reading SKILL.md, "already loaded" for a second whole read, the retained region after
 * compaction, and skills state across resume.
 */
import assert from "node:assert/strict";
import type { RecordedRequest, ScriptTurn } from "../../fixtures/scripted_model.ts";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { savedSession } from "../_journal.ts";

const base = (url: string) => ["--base-url", url, "--model", "m", "--access", "auto", "--no-env"];
// deno-lint-ignore no-explicit-any
const text = (message: any) => String(message?.content ?? "");
const isSummaryRequest = (request: RecordedRequest) =>
  /compaction summary/.test(text(request.messages.at(-1)));
const SKILL_PATH = ".agents/skills/release/SKILL.md";
const SKILL_BODY = "1. Run the tests.\n2. Tag the release as vX.Y.Z.\n3. Push the tag.\n";
const SKILL =
  `---\nname: release\ndescription: How to cut a release of this project\n---\n${SKILL_BODY}`;
const read = (path: string): ScriptTurn => ({
  toolCalls: [{ name: "read_file", arguments: { path } }],
});

Deno.test("skills are listed, loaded with read_file, and a second whole read is already loaded", async () => {
  await using project = await tempProject({
    [SKILL_PATH]: SKILL,
    ".agents/skills/broken/SKILL.md": "---\nname: broken\n",
  });
  await using model = scriptedModel([
    read(SKILL_PATH),
    read(SKILL_PATH),
    { toolCalls: [{ name: "read_file", arguments: { path: SKILL_PATH, start_line: 2 } }] },
    { text: "released" },
  ]);
  const result = await runHelInProcess([...base(model.url), "cut a release"], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /hel: warning: .agents\/skills\/broken\/SKILL.md: .*closing "---"/);
  const system = text(model.requests[0]!.messages[0]);
  assert.match(system, /<available-skills>/);
  assert.ok(system.includes('"name": "release"'));
  assert.ok(system.includes('"description": "How to cut a release of this project"'));
  assert.ok(system.includes(`"path": "${SKILL_PATH}"`));
  assert.ok(!system.includes("Tag the release"), "bodies never go in the system message");
  assert.ok(!system.includes("broken"));
  const [, first, second, third] = model.requests.map((r) => text(r.messages.at(-1)));
  assert.equal(first, SKILL);
  assert.match(second!, new RegExp(`^Skill at ${SKILL_PATH} is already loaded`));
  assert.ok(third!.startsWith("name: release"), "range reads always return the text");
  assert.equal(model.remaining(), 0);
});

Deno.test("without read_file there is no skills section", async () => {
  await using project = await tempProject({ [SKILL_PATH]: SKILL });
  await using model = scriptedModel([{ text: "ok" }]);
  const result = await runHelInProcess([...base(model.url), "--tools", "bash", "hi"], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(text(model.requests[0]!.messages[0]), /available-skills/);
  assert.deepEqual(model.requests[0]!.toolNames.includes("read_file"), false);
});

const filler = (label: string) =>
  Array.from({ length: 40 }, (_, i) => `${label} line ${i}: ${"x".repeat(60)}`).join("\n");

Deno.test("loaded skills are retained after compaction and survive resume", async () => {
  await using project = await tempProject({
    [SKILL_PATH]: SKILL,
    "a.txt": filler("a"),
    "b.txt": filler("b"),
    "c.txt": filler("c"),
    "d.txt": filler("d"),
  });
  const summary = "## Primary Request and Intent\n- cut a release\n## Next Step\n- push";
  const steps = [read(SKILL_PATH), read("a.txt"), read("b.txt"), read("c.txt"), read("d.txt")];
  const play = (request: RecordedRequest): ScriptTurn =>
    isSummaryRequest(request) ? { text: summary } : steps.shift() ?? { text: "read everything" };
  await using model = scriptedModel([
    ...Array.from({ length: 7 }, () => play),
    read(SKILL_PATH),
    { text: "resumed" },
  ]);
  const small = ["--compact-at", "2500", "--keep-recent", "900"];
  const result = await runHelInProcess([...base(model.url), ...small, "release it"], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "read everything\n");
  const summaryAt = model.requests.findIndex(isSummaryRequest);
  assert.ok(summaryAt > 0, result.stderr);
  const after = model.requests[summaryAt + 1]!.messages;
  // The checkpoint and the retained skills are both user messages of the conversation; a request
  // joins neighbours of one role into one message (agent/model/joined_user_messages.ts).
  assert.equal(after[1].role, "user");
  assert.match(text(after[1]), /^\[Automatic checkpoint\]/);
  const region = text(after[1]).slice(text(after[1]).indexOf("\n\n<retained-skills>\n") + 2);
  assert.match(region, /^<retained-skills>\n/);
  assert.ok(region.includes(`Skill "release" from ${SKILL_PATH}`));
  assert.ok(region.includes(SKILL_BODY.trim()));
  assert.match(region, /<\/retained-skills>$/);
  // The original read of the skill is gone from the kept history; only the region has it.
  assert.equal(after.filter((m: unknown) => text(m).includes("Tag the release")).length, 1);

  const id = result.stderr.match(/^session: (\S+)$/m)![1]!;
  const saved = await savedSession(project.project, id);
  const skills = saved.plugins.skills as { loaded: { path: string }[] };
  assert.equal(skills.loaded[0]!.path, SKILL_PATH);
  assert.equal(saved.retained, 1);

  const resumed = await runHelInProcess([
    ...base(model.url),
    ...small,
    "--resume",
    id,
    "-i",
    "again",
  ], {
    cwd: project.project,
  });
  assert.equal(resumed.code, 0, resumed.stderr);
  const [reread, last] = model.requests.slice(-2);
  const restored = text(reread!.messages[1]);
  assert.equal(restored.slice(restored.indexOf("\n\n<retained-skills>\n") + 2), region);
  // The retained body is complete and unchanged, so a whole re-read is already loaded.
  assert.match(text(last!.messages.at(-1)), /already loaded/);
  assert.equal(model.remaining(), 0);
});
