/**
 * Permission rules deciding real calls of the built-in tools (bash in its sandbox, the file
 * tools), in a whole run with the rules given as the settings files will give them: what runs,
 * what the person is asked, and what the model reads.
 */
import assert from "node:assert/strict";
import tools from "../../plugins/tools/mod.ts";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { NEVER, startTestRun } from "../../agent/run_testing.ts";
import type { ApprovalRequest, PermissionRules } from "../../core/permissions.ts";
import type { PermissionEvent } from "../../core/events.ts";
import type { ScriptTurn } from "../../fixtures/scripted_client.ts";

const SETTINGS = "/home/me/.hel/settings.jsonc";

function rules(lists: Partial<Record<keyof PermissionRules, string[]>>): PermissionRules {
  const entries = (list: string[] = []) => list.map((rule) => ({ rule, source: SETTINGS }));
  return { allow: entries(lists.allow), ask: entries(lists.ask), deny: entries(lists.deny) };
}

const bash = (id: string, command: string) => ({
  toolCalls: [{ id, name: "bash", arguments: { command } }],
});

/** One turn of a run in `access` with `permissions`; the person answers every question no. */
async function runWith(
  turns: ScriptTurn[],
  permissions: PermissionRules,
  access: "confirm" | "auto" | "read-only" = "confirm",
  prepare: (project: string) => Promise<void> = () => Promise.resolve(),
) {
  const asked: ApprovalRequest[] = [];
  const t = await startTestRun({
    turns: { m: [...turns, { text: "done" }] },
    settings: { access, permissions },
    plugins: () => [tools()],
    approver: {
      approve(request) {
        asked.push(request);
        return Promise.resolve({ approval: "denied" });
      },
    },
  });
  await prepare(t.project);
  await t.run.turn("go", NEVER);
  const requests = t.models.get("m")!.requests;
  const toolMessages = requests.at(-1)!.messages.filter((message) => message.role === "tool")
    .map((message) => message.content as string);
  const permissionEvents = t.events.filter((event): event is PermissionEvent =>
    event.type === "permission"
  );
  const exists = (path: string) => Deno.stat(`${t.project}/${path}`).then(() => true, () => false);
  return { t, asked, toolMessages, permissionEvents, exists };
}

Deno.test({
  name: "in confirm, a bash call an allow rule covers runs without a question",
  ignore: !hasBwrap(),
  async fn() {
    const { t, asked, toolMessages, permissionEvents, exists } = await runWith(
      [bash("c1", "touch made.txt && echo ran")],
      rules({ allow: ["bash(touch:*)", "bash(echo:*)"] }),
    );
    await using _ = t;
    assert.deepEqual(asked, []);
    assert.equal(toolMessages[0], "exit=0\nran\n");
    assert.equal(await exists("made.txt"), true);
    assert.equal(permissionEvents[0]?.decision, "allow");
    assert.deepEqual(permissionEvents[0]?.byRule?.rules.map((rule) => rule.rule), [
      "bash(touch:*)",
      "bash(echo:*)",
    ]);
  },
});

Deno.test({
  name: "a compound command with one part no allow rule covers is asked",
  ignore: !hasBwrap(),
  async fn() {
    const { t, asked, toolMessages, exists } = await runWith(
      [bash("c1", "echo ran; touch made.txt")],
      rules({ allow: ["bash(echo:*)"] }),
    );
    await using _ = t;
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.args.command, "echo ran; touch made.txt");
    assert.match(
      toolMessages[0]!,
      /^error: permission denied: bash \(access=confirm, approval=denied\)/,
    );
    assert.equal(await exists("made.txt"), false);
  },
});

Deno.test({
  name: "a denied call is refused in auto, with the rule and its file named to the model",
  ignore: !hasBwrap(),
  async fn() {
    const { t, asked, toolMessages, permissionEvents, exists } = await runWith(
      [bash("c1", "echo a && touch made.txt")],
      rules({ allow: ["bash"], deny: ["bash(touch:*)"] }),
      "auto",
    );
    await using _ = t;
    assert.deepEqual(asked, []);
    assert.equal(
      toolMessages[0],
      'error: permission denied: bash is refused by the rule "bash(touch:*)" (permissions.deny ' +
        `in ${SETTINGS}). Do not try the same thing another way; continue with other tools, or ` +
        "tell the user what you need and that this rule stops it.",
    );
    assert.equal(await exists("made.txt"), false);
    assert.equal(permissionEvents[0]?.decision, "deny");
    assert.equal(permissionEvents[0]?.byRule?.effect, "deny");
  },
});

Deno.test({
  name: "an ask rule asks even in auto, without a don't-ask-again choice",
  ignore: !hasBwrap(),
  async fn() {
    const { t, asked, exists } = await runWith(
      [bash("c1", "touch made.txt")],
      rules({ ask: ["bash(touch:*)"] }),
      "auto",
    );
    await using _ = t;
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.scope, undefined);
    assert.equal(asked[0]!.byRule?.rules[0]?.rule, "bash(touch:*)");
    assert.equal(await exists("made.txt"), false);
  },
});

Deno.test({
  name: "a command hidden behind a wrapper is asked when a deny rule could cover it",
  ignore: !hasBwrap(),
  async fn() {
    const { t, asked } = await runWith(
      [bash("c1", "bash -c 'touch made.txt'")],
      rules({ allow: ["bash"], deny: ["bash(touch:*)"] }),
      "auto",
    );
    await using _ = t;
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.byRule?.uncertain, true);
  },
});

Deno.test("write_file(src/**) allows writes in src after resolving the path, not outside it", async () => {
  const write = (id: string, path: string) => ({
    toolCalls: [{ id, name: "write_file", arguments: { path, content: "x" } }],
  });
  const { t, asked, toolMessages } = await runWith(
    [write("w1", "src/../src/a.txt"), write("w2", "src/../b.txt"), write("w3", "src/link/c.txt")],
    rules({ allow: ["write_file(src/**)"] }),
    "confirm",
    async (project) => {
      await Deno.mkdir(`${project}/src`);
      await Deno.symlink(project, `${project}/src/link`);
    },
  );
  await using _ = t;
  assert.equal(toolMessages[0], "wrote 1 bytes to src/../src/a.txt");
  assert.match(toolMessages[1]!, /approval=denied/);
  assert.equal(asked.map((request) => request.args.path).join(), "src/../b.txt,src/link/c.txt");
});

Deno.test("read-only stays read-only: an allow rule does not widen it", async () => {
  const { t, asked, toolMessages } = await runWith(
    [{ toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "a.txt", content: "x" } }] }],
    rules({ allow: ["write_file"] }),
    "read-only",
  );
  await using _ = t;
  assert.deepEqual(asked, []);
  assert.match(toolMessages[0]!, /access level read-only does not allow/);
});

Deno.test("a malformed rule is reported once, naming the rule and its file, and ignored", async () => {
  const { t, toolMessages } = await runWith(
    [{ toolCalls: [{ id: "r1", name: "read_file", arguments: { path: "x.txt" } }] }],
    rules({ deny: ["read_file(x.txt", "read_file(../x.txt)"] }),
  );
  await using _ = t;
  const warnings = t.events.filter((event) => event.type === "warning").map((event) => event.text);
  assert.equal(warnings.filter((text) => text.includes('"read_file(x.txt"')).length, 1);
  assert.ok(
    warnings.some((text) =>
      text.startsWith(`permission rule "read_file(../x.txt)" (permissions.deny in ${SETTINGS})`) &&
      text.includes('leaves the project with ".."')
    ),
    warnings.join("\n"),
  );
  assert.match(toolMessages[0]!, /no such file/);
});

Deno.test("a search of a folder holding files a deny rule covers is asked, not run; one elsewhere runs", async () => {
  const grep = (id: string, path: string) => ({
    toolCalls: [{ id, name: "grep", arguments: { pattern: "SECRET", path } }],
  });
  const { t, asked, toolMessages } = await runWith(
    [grep("g1", "."), grep("g2", "src")],
    rules({ deny: ["grep(secrets/**)"] }),
    "auto",
    async (project) => {
      await Deno.mkdir(`${project}/secrets`);
      await Deno.mkdir(`${project}/src`);
      await Deno.writeTextFile(`${project}/secrets/key.txt`, "SECRET=hunter2\n");
      await Deno.writeTextFile(`${project}/src/a.ts`, "// SECRET handling\n");
    },
  );
  await using _ = t;
  // The whole project may reach secrets/: the person is asked (and says no here).
  assert.deepEqual(asked.map((request) => request.args.path), ["."]);
  assert.doesNotMatch(toolMessages[0]!, /hunter2/);
  assert.match(toolMessages[0]!, /permission denied/);
  // src/ cannot reach secrets/: the search runs without a question.
  assert.match(toolMessages[1]!, /src\/a\.ts/);
});
