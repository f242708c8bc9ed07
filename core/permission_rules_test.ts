import assert from "node:assert/strict";
import { test } from "node:test";
import type { PermissionRules } from "./permissions.ts";
import { decideWithRules } from "./permissions.ts";
import { type CommandPart, RuleBook, type RuleTarget } from "./permission_rules.ts";
import { checkRule, commandRule, pathRule, ruleForScope } from "./permission_rule_text.ts";

const SOURCE = "/home/me/.hel/settings.jsonc";

function book(rules: Partial<Record<"allow" | "ask" | "deny", string[]>>): RuleBook {
  const entries = (list: string[] = []) => list.map((rule) => ({ rule, source: SOURCE }));
  const permissions: PermissionRules = {
    allow: entries(rules.allow),
    ask: entries(rules.ask),
    deny: entries(rules.deny),
  };
  return new RuleBook(permissions);
}

/** A tool whose calls are about `target`, counting how often it was asked. */
function toolAbout(name: string, target?: RuleTarget) {
  const asked = { count: 0 };
  return {
    asked,
    tool: {
      name,
      ...(target
        ? {
          ruleTarget: () => {
            asked.count++;
            return Promise.resolve(target);
          },
        }
        : {}),
    },
  };
}

const commands = (plain: boolean, ...parts: (string | null)[][]): RuleTarget => ({
  kind: "command",
  plain,
  parts: parts.map((words): CommandPart => ({ words })),
});

async function effect(rules: RuleBook, name: string, target?: RuleTarget) {
  const problems: string[] = [];
  const decision = await rules.decide(toolAbout(name, target).tool, {}, (p) => problems.push(p));
  return {
    effect: decision?.effect,
    rules: decision?.rules.map((r) => r.rule),
    problems,
    decision,
  };
}

test("rule text: tool, tool(content), globs in the name; malformed rules say what to write", () => {
  for (const good of ["read_file", "bash(npm test:*)", "write_file(src/**)", "mcp__github__*"]) {
    assert.equal(checkRule(good), undefined, good);
  }
  const problems: [string, RegExp][] = [
    ["", /empty/],
    ["bash(npm test", /does not end with "\)"/],
    ["bash()", /parentheses are empty; write bash alone/],
    ["ba sh", /not a tool name/],
    ["(npm test)", /not a tool name/],
    ["bash(npm test)\nrm", /line break/],
    ["*", /not a tool name/],
  ];
  for (const [rule, problem] of problems) assert.match(checkRule(rule) ?? "", problem, rule);
});

test("command and path contents: plain words, :* only at the end, globs inside the project", () => {
  assert.deepEqual(commandRule("npm test:*"), { words: ["npm", "test"], prefix: true });
  assert.deepEqual(commandRule("git  status"), { words: ["git", "status"], prefix: false });
  for (const bad of ["npm test; rm", "npm test*", "'npm' test", "npm $X", "a && b", ":*", "~/x"]) {
    assert.ok("problem" in commandRule(bad), bad);
  }
  assert.deepEqual(pathRule("./src/**"), { glob: "src/**" });
  for (const bad of ["/etc/**", "../x", "src/../../x", "~/x", "!src/**"]) {
    assert.ok("problem" in pathRule(bad), bad);
  }
});

test("deny beats ask beats allow, whatever order the lists are in", async () => {
  const rules = book({ allow: ["bash"], ask: ["bash(npm:*)"], deny: ["bash(npm publish:*)"] });
  assert.equal((await effect(rules, "bash", commands(true, ["npm", "publish"]))).effect, "deny");
  assert.equal((await effect(rules, "bash", commands(true, ["npm", "test"]))).effect, "ask");
  assert.equal((await effect(rules, "bash", commands(true, ["ls"]))).effect, "allow");
  assert.equal((await effect(rules, "read_file")).effect, undefined);
});

test("a command prefix matches on word boundaries; an exact rule only the whole command", async () => {
  const rules = book({ allow: ["bash(npm test:*)", "bash(git status)"] });
  const allowed = async (...words: string[]) =>
    (await effect(rules, "bash", commands(true, words))).effect === "allow";
  assert.equal(await allowed("npm", "test"), true);
  assert.equal(await allowed("npm", "test", "--watch"), true);
  assert.equal(await allowed("npm", "testing"), false);
  assert.equal(await allowed("npm"), false);
  assert.equal(await allowed("git", "status"), true);
  assert.equal(await allowed("git", "status", "-s"), false);
});

test("a compound command is allowed only when every part is, by any allow rules", async () => {
  const rules = book({ allow: ["bash(npm test:*)", "bash(npm run lint)"] });
  const both = await effect(rules, "bash", commands(true, ["npm", "test"], ["npm", "run", "lint"]));
  assert.equal(both.effect, "allow");
  assert.deepEqual(both.rules, ["bash(npm test:*)", "bash(npm run lint)"]);
  const one = await effect(rules, "bash", commands(true, ["npm", "test"], ["rm", "-rf", "/"]));
  assert.equal(one.effect, undefined);
  // Not plain (a substitution, a redirect to a file): never allowed by a rule with content.
  assert.equal((await effect(rules, "bash", commands(false, ["npm", "test"]))).effect, undefined);
  assert.equal((await effect(rules, "bash", commands(true))).effect, undefined, "no command");
  // A rule for the whole tool covers any line, plain or not.
  assert.equal((await effect(book({ allow: ["bash"] }), "bash", commands(false))).effect, "allow");
});

test("a deny rule matches when any part does; an unknown word makes it ask instead", async () => {
  const rules = book({ allow: ["bash"], deny: ["bash(rm:*)", "bash(git push:*)"] });
  const line = (...parts: (string | null)[][]) => effect(rules, "bash", commands(false, ...parts));
  const denied = await line(["npm", "test"], ["rm", "-rf", "~"]);
  assert.equal(denied.effect, "deny");
  assert.deepEqual(denied.rules, ["bash(rm:*)"]);
  const hidden = await line(["npm", "test"], [null]);
  assert.equal(hidden.effect, "ask");
  assert.equal(hidden.decision?.uncertain, true);
  assert.equal((await line(["git", null])).effect, "ask");
  assert.equal((await line(["git", "pull", null])).effect, "allow");
  // A word that definitely differs comes before the unknown one.
  assert.equal((await line(["ls", null])).effect, "allow");
});

test("deny and ask rules name a program wherever it lives; allow rules only as written", async () => {
  const rules = book({ allow: ["bash(ls:*)"], ask: ["bash(git push:*)"], deny: ["bash(rm:*)"] });
  const line = (...words: string[]) => effect(rules, "bash", commands(true, words));
  for (const program of ["/bin/rm", "/usr/bin/rm", "./rm", "../../bin/rm"]) {
    const refused = await line(program, "-rf", "~");
    assert.equal(refused.effect, "deny", program);
    assert.deepEqual(refused.rules, ["bash(rm:*)"]);
  }
  assert.equal((await line("/usr/bin/git", "push")).effect, "ask");
  assert.equal((await line("/usr/bin/git", "pull")).effect, undefined);
  // An allow rule for ls does not cover some other ls.
  assert.equal((await line("ls", "-la")).effect, "allow");
  assert.equal((await line("./ls", "-la")).effect, undefined);
  // A rule that names a path covers that path only.
  const byPath = book({ deny: ["bash(/opt/tool/run:*)"] });
  assert.equal((await effect(byPath, "bash", commands(true, ["run"]))).effect, undefined);
  assert.equal((await effect(byPath, "bash", commands(true, ["/opt/tool/run"]))).effect, "deny");
});

test("path rules match the project-relative path; a path outside matches nothing", async () => {
  const rules = book({
    allow: ["write_file(src/**)"],
    deny: ["read_file(secrets/**)", "read_file(.env)"],
  });
  const at = (tool: string, path: string | undefined) =>
    effect(rules, tool, { kind: "path", path });
  assert.equal((await at("write_file", "src/a/b.ts")).effect, "allow");
  assert.equal((await at("write_file", "src/.hidden")).effect, "allow");
  assert.equal((await at("write_file", "docs/a.md")).effect, undefined);
  assert.equal((await at("write_file", undefined)).effect, undefined);
  assert.equal((await at("read_file", "secrets/key")).effect, "deny");
  assert.equal((await at("read_file", ".env")).effect, "deny");
  assert.equal((await at("read_file", "src/.env")).effect, undefined);
});

test("tool names match as globs: mcp__github__* covers that server's tools only", async () => {
  const rules = book({ allow: ["mcp__github__*"] });
  assert.equal((await effect(rules, "mcp__github__create_issue")).effect, "allow");
  assert.equal((await effect(rules, "mcp__githubx__create_issue")).effect, undefined);
  assert.equal((await effect(rules, "bash")).effect, undefined);
});

test("the tool is asked what a call is about only when a rule with content needs it", async () => {
  const about = toolAbout("bash", commands(true, ["ls"]));
  await book({ allow: ["bash"], deny: ["read_file(x)"] }).decide(about.tool, {}, () => {});
  assert.equal(about.asked.count, 0);
  await book({ allow: ["bash(ls)"] }).decide(about.tool, {}, () => {});
  assert.equal(about.asked.count, 1);
});

test("malformed rules are listed with their source; a misfit is reported once and ignored", async () => {
  const rules = book({ allow: ["bash(npm test", "bash(npm test; rm -rf ~)"], deny: ["x()"] });
  assert.deepEqual(rules.problems, [
    `permission rule "x()" (permissions.deny in ${SOURCE}): the parentheses are empty; write ` +
    "x alone for every call of it",
    `permission rule "bash(npm test" (permissions.allow in ${SOURCE}): it does not end with ")" ` +
    "after what it covers; a rule is a tool's name, or a name and what it covers in " +
    "parentheses, such as read_file, bash(npm test:*), write_file(src/**) or mcp__github__*",
  ]);
  const problems: string[] = [];
  const { tool } = toolAbout("bash", commands(true, ["npm", "test"]));
  for (let i = 0; i < 2; i++) {
    assert.equal(await rules.decide(tool, {}, (p) => problems.push(p)), undefined);
  }
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /^permission rule "bash\(npm test; rm -rf ~\)" \(permissions\.allow/);
  assert.match(problems[0]!, /the rule is ignored$/);
  // A tool that says nothing of its calls: content cannot apply.
  const none: string[] = [];
  await book({ deny: ["whoami(x)"] }).decide({ name: "whoami" }, {}, (p) => none.push(p));
  assert.match(none[0]!, /whoami calls are not about a command or a path/);
});

test("a tool that fails to say what a call is about is treated as unknown", async () => {
  const failing = { name: "bash", ruleTarget: () => Promise.reject(new Error("boom")) };
  const deny = await book({ deny: ["bash(rm:*)"] }).decide(failing, {}, () => {});
  assert.deepEqual(deny?.effect, "ask");
  assert.equal(await book({ allow: ["bash(ls)"] }).decide(failing, {}, () => {}), undefined);
});

test("with the access level: deny refuses everywhere, read-only stays, ask asks in auto", () => {
  const by = (effect: "allow" | "ask" | "deny") => ({
    effect,
    rules: [{ rule: "bash", source: SOURCE }],
  });
  assert.equal(decideWithRules("auto", "execute", by("deny")).decision, "deny");
  assert.equal(decideWithRules("auto", "read", by("deny")).decision, "deny");
  assert.equal(decideWithRules("read-only", "execute", by("allow")).decision, "deny");
  assert.equal(decideWithRules("read-only", "execute", by("allow")).byRule, undefined);
  assert.equal(decideWithRules("auto", "execute", by("ask")).decision, "ask");
  assert.equal(decideWithRules("read-only", "read", by("ask")).decision, "ask");
  assert.equal(decideWithRules("confirm", "write", by("allow")).decision, "allow");
  assert.equal(decideWithRules("confirm", "write", undefined).decision, "ask");
});

test("a don't-ask-again scope saved as a rule", () => {
  assert.equal(ruleForScope({ kind: "tool", tool: "write_file" }), "write_file");
  assert.equal(
    ruleForScope({ kind: "command", tool: "bash", prefix: "npm test" }),
    "bash(npm test:*)",
  );
  assert.equal(ruleForScope({ kind: "server", server: "github" }), "mcp__github__*");
  for (const rule of ["write_file", "bash(npm test:*)", "mcp__github__*"]) {
    assert.equal(checkRule(rule), undefined);
  }
});
