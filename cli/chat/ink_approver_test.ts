import assert from "node:assert/strict";
import type { ApprovalRequest } from "../../core/permissions.ts";
import { inkApprover } from "./ink_approver.ts";
import { SessionRules } from "./session_rules.ts";
import { ChatStore } from "./store.ts";

const npmTest: ApprovalRequest = {
  toolName: "bash",
  args: { command: "npm test" },
  preview: { kind: "command", command: "npm test", cwd: "/p" },
  scope: { kind: "command", tool: "bash", prefix: "npm test" },
};

function setUp() {
  const store = new ChatStore({ width: () => 80, color: false });
  const rules = new SessionRules();
  return { store, rules, approver: inkApprover(store, rules) };
}

Deno.test("'always' adds the call's scope and the next covered call is not asked", async () => {
  const { store, rules, approver } = setUp();
  const first = approver.approve(npmTest);
  store.snapshot().question!.answer({ approval: "approved", always: true });
  assert.deepEqual(await first, { approval: "approved" });
  assert.deepEqual(rules.list(), [npmTest.scope]);
  assert.deepEqual(await approver.approve(npmTest), { approval: "approved" });
  assert.equal(store.snapshot().question, undefined, "no question was opened");
  const last = store.snapshot().transcript.items.at(-1);
  assert.ok(last?.kind === "notice" && /allowed without asking/.test(last.text));
});

Deno.test("a call without a scope is asked every time, even after 'always'", async () => {
  const { store, rules, approver } = setUp();
  const compound = { ...npmTest, scope: undefined };
  const first = approver.approve(compound);
  store.snapshot().question!.answer({ approval: "approved", always: true });
  await first;
  assert.deepEqual(rules.list(), []);
  void approver.approve(compound);
  assert.ok(store.snapshot().question, "asked again");
});

Deno.test("no with instructions passes them on; an aborted call is a no", async () => {
  const { store, approver } = setUp();
  const refused = approver.approve(npmTest);
  store.snapshot().question!.answer({ approval: "denied", instead: "  run deno test  " });
  assert.deepEqual(await refused, { approval: "denied", instead: "run deno test" });
  const stop = new AbortController();
  const abandoned = approver.approve(npmTest, stop.signal);
  stop.abort();
  assert.deepEqual(await abandoned, { approval: "denied" });
});

Deno.test("u or p saves the scope through the saver; a failed save is a warning, the yes stands", async () => {
  const store = new ChatStore({ width: () => 80, color: false });
  const rules = new SessionRules();
  const saves: string[] = [];
  let fail = false;
  const saver = {
    places: { user: "~/.hel/settings.jsonc", project: ".hel/settings.jsonc" },
    saved: () => [],
    save(scope: ApprovalRequest["scope"] & object, place: "user" | "project") {
      saves.push(`${scope.kind} ${place}`);
      return Promise.resolve(
        fail
          ? { problem: "could not save the rule bash(npm test:*) in ~/.hel/settings.jsonc: no" }
          : { rule: "bash(npm test:*)", place, shown: saver.places[place] },
      );
    },
  };
  const approver = inkApprover(store, rules, saver);
  const first = approver.approve(npmTest);
  assert.deepEqual(store.snapshot().question!.saveFiles, saver.places);
  store.snapshot().question!.answer({ approval: "approved", always: true, save: "project" });
  assert.deepEqual(await first, { approval: "approved" });
  assert.deepEqual(saves, ["command project"]);
  assert.deepEqual(rules.list(), [npmTest.scope]);
  const notice = store.snapshot().transcript.items.at(-1);
  assert.ok(
    notice?.kind === "notice" && /saved the rule bash\(npm test:\*\) in \.hel/.test(notice.text),
  );
  fail = true;
  const other = { ...npmTest, scope: { kind: "tool" as const, tool: "write_file" } };
  const second = approver.approve(other);
  store.snapshot().question!.answer({ approval: "approved", always: true, save: "user" });
  assert.deepEqual(await second, { approval: "approved" });
  const warning = store.snapshot().transcript.items.at(-1);
  assert.ok(warning?.kind === "notice" && /could not save/.test(warning.text));
  // A call without a scope is offered nothing to save.
  void approver.approve({ ...npmTest, scope: undefined });
  assert.equal(store.snapshot().question!.saveFiles, undefined);
});
