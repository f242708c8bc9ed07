import assert from "node:assert/strict";
import type { Run } from "../../agent/run.ts";
import { emptyUsage } from "../../core/usage.ts";
import { inkOnTerminal, settle } from "../../tests/_ink_terminal.ts";
import { ChatApp } from "./app.tsx";
import { ChatController } from "./controller.ts";
import { inkApprover } from "./ink_approver.ts";
import { SessionRules } from "./session_rules.ts";
import { ChatStore } from "./store.ts";

/** The app on a pretend terminal, with a run that never gets a turn. */
async function chatOnTerminal(notifyDelayMs = 0) {
  const run = {
    session: { id: "s1" },
    usage: emptyUsage(),
    contextUsage: () => ({ used: undefined, window: undefined, estimated: false }),
  } as unknown as Run;
  const store = new ChatStore({ width: () => 80, color: false, notifyDelayMs });
  const rules = new SessionRules();
  const controller = new ChatController({
    run,
    store,
    rules,
    nextSignal: () => new AbortController().signal,
    idle: () => {},
    clearScreen: () => {},
  });
  const history = { entries: () => [], add: () => Promise.resolve() };
  const terminal = await inkOnTerminal(
    <ChatApp
      store={store}
      controller={controller}
      run={run}
      history={history}
      commands={[]}
      model="m"
      access="confirm"
      color={false}
    />,
    { columns: 80, rows: 30 },
  );
  return { store, rules, terminal, approver: inkApprover(store, rules) };
}

Deno.test("ctrl+o shows the last tool call whole after its preview", async () => {
  const { store, terminal } = await chatOnTerminal();
  try {
    const output = Array.from({ length: 12 }, (_, i) => `output line ${i + 1}`).join("\n");
    store.onEvent({
      type: "tool_call",
      callId: "c1",
      name: "bash",
      args: { command: "make" },
      category: "exec",
      ok: true,
      status: "done",
      text: output,
    });
    const preview = await terminal.screen();
    assert.match(preview, /output line 1\b/);
    assert.doesNotMatch(preview, /output line 12/);
    await terminal.keys("\x0f"); // ctrl+o
    assert.match(await terminal.screen(), /output line 12/);
  } finally {
    await terminal.close();
  }
});

Deno.test("a permission question owns the keys until it is answered", async () => {
  const { store, terminal, approver, rules } = await chatOnTerminal();
  try {
    const answer = approver.approve({
      toolName: "bash",
      args: { command: "npm test" },
      preview: { kind: "command", command: "npm test", cwd: "/p" },
      scope: { kind: "command", tool: "bash", prefix: "npm test" },
    });
    await settle();
    assert.match(await terminal.screen(), /\$ npm test/);
    await terminal.keys("a");
    assert.deepEqual(await answer, { approval: "approved" });
    assert.equal(rules.list().length, 1);
    assert.equal(store.snapshot().question, undefined);
    // The box's "a" went to the question, not into the input box.
    assert.doesNotMatch(await terminal.screen(), /> a\b/);
  } finally {
    await terminal.close();
  }
});

Deno.test("a question asked right after another is answered by its own key", async () => {
  // Changes are drawn in batches: the second question can replace the first in one frame.
  const { store, terminal, approver } = await chatOnTerminal(16);
  const ask = (command: string) =>
    approver.approve({
      toolName: "bash",
      args: { command },
      preview: { kind: "command", command, cwd: "/p" },
      scope: undefined,
    });
  try {
    const first = ask("ls");
    // Asked as soon as the first is answered, as a turn's next call does.
    const second = first.then(() => ask("pwd"));
    await settle();
    await terminal.keys("y");
    assert.deepEqual(await first, { approval: "approved" });
    await settle();
    assert.match(await terminal.screen(), /\$ pwd/);
    await terminal.keys("n", "\r");
    assert.deepEqual(await second, { approval: "denied" });
  } finally {
    store.dispose();
    await terminal.close();
  }
});

Deno.test("a picker chooses with the arrows and Enter, or gives up on Esc", async () => {
  const { store, terminal } = await chatOnTerminal();
  try {
    const chosen = store.pick("Resume which session?", ["first · 1h ago", "second · 2d ago"]);
    await settle();
    assert.match(await terminal.screen(), /Resume which session\?[\s\S]*second · 2d ago/);
    await terminal.keys("\x1b[B", "\r"); // ↓, Enter
    assert.equal(await chosen, 1);
    const cancelled = store.pick("Again?", ["only"]);
    await settle();
    await terminal.keys("\x1b");
    assert.equal(await cancelled, undefined);
  } finally {
    await terminal.close();
  }
});
