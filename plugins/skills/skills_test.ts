/**
 * Unit tests of the skills plugin: front matter, discovery and its refusals, the
 * "already loaded" answer, the retained region and the saved state.
 */
import assert from "node:assert/strict";
import type { ChatMessage, Host, Tool, ToolCallInfo } from "../../core/mod.ts";
import { parseSkillFile } from "./front_matter.ts";
import { discoverSkills } from "./discovery.ts";
import { prefixWithin, RETAINED_SKILL_TOKENS, retainedRegion } from "./retained.ts";
import skills from "./mod.ts";
import { estimateTokens } from "../../core/mod.ts";

const skillText = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

async function project(files: Record<string, string>): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-skills-" }));
  for (const [path, text] of Object.entries(files)) {
    const full = `${root}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  return root;
}

function fakeHost(root: string, tools: string[], conversation: ChatMessage[], warnings: string[]) {
  return {
    project: root,
    log: { warn: (text: string) => warnings.push(text), info: () => {} },
    registeredToolNames: () => tools,
    conversation: () => conversation,
  } as unknown as Host;
}

const readCall = (path: string, extra: Record<string, unknown> = {}): ToolCallInfo => ({
  callId: "c1",
  name: "read_file",
  args: { path, ...extra },
  tool: {} as Tool,
});

Deno.test("front matter: name, description and body; bad files name the problem", () => {
  const skill = parseSkillFile(skillText("deploy", "How to deploy", "Step 1\nStep 2\n"));
  assert.deepEqual(skill, {
    name: "deploy",
    description: "How to deploy",
    body: "Step 1\nStep 2\n",
  });
  const cases: [string, RegExp][] = [
    ["", /empty/],
    ["name: x\n", /start with a "---" line/],
    ["---\nname: x\ndescription: y\n", /no closing "---"/],
    ["---\nname: [x\n---\n", /invalid YAML/],
    ["---\n- a\n---\n", /mapping/],
    ["---\nname: x\n---\n", /non-blank "description"/],
    ["---\nname: '  '\ndescription: d\n---\n", /non-blank "name"/],
    [`---\nname: ${"n".repeat(300)}\ndescription: d\n---\n`, /longer than 256 bytes/],
  ];
  for (const [text, pattern] of cases) assert.throws(() => parseSkillFile(text), pattern, text);
});

Deno.test("discovery: sorted catalog; malformed, symlinked and outside skills are skipped", async () => {
  const outside = await project({ "evil/SKILL.md": skillText("evil", "outside", "x") });
  const root = await project({
    ".agents/skills/b-skill/SKILL.md": skillText("b", "second", "body b"),
    ".agents/skills/a-skill/SKILL.md": skillText("a", "first", "body a"),
    ".agents/skills/broken/SKILL.md": "no front matter",
    ".agents/skills/empty-folder/notes.txt": "not a skill",
  });
  await Deno.symlink(`${outside}/evil`, `${root}/.agents/skills/linked`);
  await Deno.mkdir(`${root}/.agents/skills/file-link`);
  await Deno.symlink(`${outside}/evil/SKILL.md`, `${root}/.agents/skills/file-link/SKILL.md`);
  const warnings: string[] = [];
  const catalog = await discoverSkills(root, (text) => warnings.push(text));
  assert.deepEqual(catalog, [
    { path: ".agents/skills/a-skill/SKILL.md", name: "a", description: "first" },
    { path: ".agents/skills/b-skill/SKILL.md", name: "b", description: "second" },
  ]);
  assert.equal(warnings.length, 3, warnings.join("\n"));
  assert.ok(warnings.some((w) => /broken\/SKILL.md: .*"---"/.test(w)));
  assert.ok(warnings.some((w) => /linked: skill folders must be real directories/.test(w)));
  assert.ok(warnings.some((w) => /file-link\/SKILL.md: .*symlink/.test(w)));

  const linkedRoot = await project({});
  await Deno.mkdir(`${linkedRoot}/.agents`);
  await Deno.symlink(`${root}/.agents/skills`, `${linkedRoot}/.agents/skills`);
  const rootWarnings: string[] = [];
  assert.deepEqual(await discoverSkills(linkedRoot, (text) => rootWarnings.push(text)), []);
  assert.match(rootWarnings.join(), /skill roots must be real project directories/);
  for (const dir of [outside, root, linkedRoot]) await Deno.remove(dir, { recursive: true });
});

async function startedPlugin(root: string, tools: string[], conversation: ChatMessage[]) {
  const warnings: string[] = [];
  const plugin = (await skills().setup!(fakeHost(root, tools, conversation, warnings)))!;
  await plugin.ready!();
  return { plugin, warnings };
}

Deno.test("the skills section is offered only with read_file", async () => {
  const root = await project({ ".agents/skills/x/SKILL.md": skillText("x", "does x", "body") });
  const off = await startedPlugin(root, ["bash"], []);
  assert.equal(off.plugin.systemPrompt!(), undefined);
  const on = await startedPlugin(root, ["read_file"], []);
  const section = on.plugin.systemPrompt!()!;
  assert.match(section, /<available-skills>/);
  assert.match(section, /"path": ".agents\/skills\/x\/SKILL.md"/);
  assert.doesNotMatch(section, /body/);
  await Deno.remove(root, { recursive: true });
});

Deno.test("a second whole read of an unchanged, visible skill answers already loaded", async () => {
  const text = skillText("x", "does x", "Run make check before committing.\n");
  const root = await project({ ".agents/skills/x/SKILL.md": text });
  const conversation: ChatMessage[] = [];
  const { plugin } = await startedPlugin(root, ["read_file"], conversation);
  const path = ".agents/skills/x/SKILL.md";
  const result = { ok: true, text };
  assert.equal(await plugin.afterToolCall!(readCall(path), result), undefined);
  // Not yet in the conversation (e.g. compacted away): the body is delivered again.
  assert.equal(await plugin.afterToolCall!(readCall(`./${path}`), result), undefined);
  conversation.push({ role: "tool", tool_call_id: "c1", content: text });
  const again = await plugin.afterToolCall!(readCall(`${root}/${path}`), result);
  assert.match(again!.text, /already loaded/);
  // A range read always gets the text.
  assert.equal(await plugin.afterToolCall!(readCall(path, { start_line: 2 }), result), undefined);
  // A changed body is delivered and replaces the old one.
  await Deno.writeTextFile(`${root}/${path}`, skillText("x", "does x", "New rule.\n"));
  assert.equal(await plugin.afterToolCall!(readCall(path), result), undefined);
  const state = plugin.saveState!() as { loaded: { body: string }[] };
  assert.equal(state.loaded[0]!.body, "New rule.\n");
  await Deno.remove(root, { recursive: true });
});

Deno.test("a read of a removed skill is refused with a refreshed catalog", async () => {
  const root = await project({
    ".agents/skills/old/SKILL.md": skillText("old", "old one", "body"),
    ".agents/skills/new/SKILL.md": skillText("new", "new one", "body"),
  });
  const { plugin } = await startedPlugin(root, ["read_file"], []);
  await Deno.remove(`${root}/.agents/skills/old`, { recursive: true });
  const blocked = await plugin.beforeToolCall!(readCall(".agents/skills/old/SKILL.md"));
  assert.ok(blocked && "block" in blocked);
  assert.match(
    blocked.block,
    /no longer exists.*refreshed.*new \(.agents\/skills\/new\/SKILL.md\)/,
  );
  assert.equal(await plugin.beforeToolCall!(readCall(".agents/skills/new/SKILL.md")), undefined);
  await Deno.remove(root, { recursive: true });
});

Deno.test("retained region: newest first, 5,000 tokens each, 25,000 in all, visible ones left out", () => {
  const skill = (name: string, body: string, lastUsed: number) => ({
    path: `.agents/skills/${name}/SKILL.md`,
    name,
    hash: "ab".repeat(32),
    body,
    lastUsed,
  });
  const long = "line of a long skill\n".repeat(3000); // ~15,750 tokens
  const skills = [
    skill("newest", "newest body", 9),
    skill("visible", "still in the tail", 8),
    skill("long", long, 7),
    ...[6, 5, 4, 3, 2].map((n) => skill(`mid${n}`, `mid body ${n} `.repeat(1640), n)),
    skill("oldest", "oldest body", 1),
  ];
  const region = retainedRegion(skills, [
    { role: "tool", tool_call_id: "t", content: "still in the tail" },
  ]);
  assert.equal(region.length, 1);
  const content = region[0]!.content as string;
  assert.match(content, /^<retained-skills>\n/);
  assert.match(content, /<\/retained-skills>$/);
  assert.ok(estimateTokens(content) <= 25_000);
  assert.ok(content.indexOf('"newest"') < content.indexOf('"long"'));
  assert.doesNotMatch(content, /"visible"/);
  assert.match(content, /Only the first part of this skill is retained/);
  // It stops at the first skill that does not fit (mid2): the small oldest one never gets in.
  assert.match(content, /"mid3"/);
  assert.doesNotMatch(content, /"mid2"/);
  assert.doesNotMatch(content, /"oldest"/);
  assert.ok(estimateTokens(prefixWithin(long, RETAINED_SKILL_TOKENS)) <= RETAINED_SKILL_TOKENS);
  assert.ok(estimateTokens(prefixWithin(long, RETAINED_SKILL_TOKENS) + "line") > 5_000 - 2);
  assert.deepEqual(retainedRegion([], []), []);
  // Under a small compaction threshold the region keeps to the room left there.
  const small = retainedRegion(skills, [], 3_000)[0]!.content as string;
  assert.ok(estimateTokens(small) <= 3_000);
  assert.match(small, /"newest"/);
  assert.doesNotMatch(small, /"long"/);
  assert.deepEqual(retainedRegion(skills, [], 10), []);
});

Deno.test("skill state survives save and restore; bad state is refused", async () => {
  const text = skillText("x", "does x", "body of x\n");
  const root = await project({ ".agents/skills/x/SKILL.md": text });
  const first = await startedPlugin(root, ["read_file"], []);
  await first.plugin.afterToolCall!(readCall(".agents/skills/x/SKILL.md"), { ok: true, text });
  const saved = JSON.parse(JSON.stringify(first.plugin.saveState!()));
  const second = await startedPlugin(root, ["read_file"], []);
  second.plugin.restoreState!(saved);
  const region = second.plugin.afterCompaction!([], 25_000);
  assert.match(region[0]!.content as string, /body of x/);
  assert.throws(() => second.plugin.restoreState!({ version: 9 }), /unknown skills state/);
  await Deno.remove(root, { recursive: true });
});
