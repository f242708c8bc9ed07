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
