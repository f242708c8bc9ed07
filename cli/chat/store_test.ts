import assert from "node:assert/strict";
import type { LoopOutcome } from "../../core/loop.ts";
import { ChatStore } from "./store.ts";
import { GENERATION_SIZE } from "./transcript.ts";

const completed: LoopOutcome = { termination: "completed", finalText: "", error: null };

function store() {
  return new ChatStore({ width: () => 80, color: false, now: () => 1_000 });
}

const texts = (chat: ChatStore) =>
  chat.snapshot().transcript.items.map((item) =>
    item.kind === "tool"
      ? `tool:${item.call.status}:${item.call.output}`
      : `${item.kind}:${"text" in item ? item.text : ""}`
  );

Deno.test("a streamed answer settles block by block while the open block stays live", () => {
  const chat = store();
  chat.beginTurn("hi");
  const { onText } = chat.streamListeners();
  onText!("First para");
  onText!("graph.\n\nSecond\n");
  assert.deepEqual(texts(chat), ["user:hi", "answer:First paragraph."]);
  assert.equal(chat.snapshot().liveAnswer.trim(), "Second");
  assert.equal(chat.snapshot().liveAnswerFirst, false);
  assert.ok(chat.snapshot().busy);
  chat.endTurn(completed);
  // The renderer begins a block after another with its blank line.
  assert.deepEqual(texts(chat), ["user:hi", "answer:First paragraph.", "answer:\nSecond"]);
  const answers = chat.snapshot().transcript.items.filter((item) => item.kind === "answer");
  assert.deepEqual(answers.map((item) => item.kind === "answer" && item.first), [true, false]);
  assert.equal(chat.snapshot().liveAnswer, "");
  assert.equal(chat.snapshot().busy, undefined);
});

Deno.test("text from outside hel is neutralised as it enters the chat", () => {
  const chat = store();
  chat.beginTurn("say \x1b[2Jhi");
  chat.streamListeners().onReasoning!("think \x1b]0;owned\x07");
  chat.streamListeners().onText!("answer \x1b[8mhidden\r");
  chat.streamListeners().onText!("\nnext");
  chat.onEvent({ type: "tool_start", callId: "c1", name: "bash", args: {}, category: "exec" });
  chat.onEvent({ type: "tool_output", callId: "c1", text: "out \x1b[31mred\x9b" });
  const live = chat.snapshot().tools[0]!;
  chat.onEvent({ type: "warning", text: "w \x1b[1m" });
  const shown = [...texts(chat), chat.snapshot().liveAnswer, live.output].join("\n");
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(shown, /[\x00-\x08\x0b-\x1f\x7f-\x9f]/, "no raw control character is kept");
  assert.match(shown, /say \\u001b\[2Jhi/, "the person's text shows the escape as text");
  assert.match(shown, /think \\u001b\]0;owned\\u0007/);
  assert.match(live.output, /out \\u001b\[31mred\\u009b/);
  // A \r\n split across two pieces is a line end (the paragraph's lines join), not a shown \r.
  assert.ok(
    texts(chat).some((t) => t === "answer:answer \\u001b[8mhidden next"),
    texts(chat).join("|"),
  );
});

Deno.test("a tool call is live while it runs and moves to the transcript with its status", () => {
  const chat = store();
  chat.beginTurn("go");
  chat.streamListeners().onText!("Let me look.");
  chat.onEvent({ type: "tool_start", callId: "c1", name: "bash", args: {}, category: "exec" });
  assert.deepEqual(texts(chat), ["user:go", "answer:Let me look."], "the text before settles");
  chat.onEvent({ type: "tool_output", callId: "c1", text: "line 1\n" });
  chat.onEvent({ type: "tool_output", callId: "c1", text: "line 2\n" });
  assert.deepEqual(
    chat.snapshot().tools.map((c) => [c.status, c.output]),
    [["running", "line 1\nline 2\n"]],
  );
  const ended = { callId: "c1", name: "bash", args: {}, category: "exec" as const, ok: true };
  chat.onEvent({ type: "tool_call", ...ended, status: "done", text: "line 1\nline 2\n" });
  chat.onEvent({
    type: "tool_call",
    ...ended,
    callId: "c2",
    ok: false,
    status: "declined",
    text: "error: permission denied",
  });
  assert.deepEqual(chat.snapshot().tools, []);
  assert.deepEqual(texts(chat).slice(2), ["tool:done:line 1\nline 2\n", "tool:declined:"]);
});

Deno.test("reasoning settles before the answer that follows it", () => {
  const chat = store();
  chat.beginTurn("why");
  chat.streamListeners().onReasoning!("Because ");
  chat.streamListeners().onReasoning!("reasons.");
  assert.equal(chat.snapshot().liveReasoning, "Because reasons.");
  chat.streamListeners().onText!("Answer.");
  chat.endTurn(completed);
  assert.deepEqual(texts(chat), ["user:why", "reasoning:Because reasons.", "answer:Answer."]);
  assert.equal(chat.lastExpandable()?.kind, "reasoning");
});

Deno.test("an interrupted turn says so and an answer that was not streamed arrives whole", () => {
  const chat = store();
  chat.beginTurn("one");
  chat.endTurn({ termination: "interrupted", finalText: null, error: "interrupted" });
  chat.beginTurn("two");
  chat.endTurn({ termination: "completed", finalText: "whole answer", error: null });
  assert.deepEqual(texts(chat), [
    "user:one",
    "notice:interrupted",
    "user:two",
    "answer:whole answer",
  ]);
});

Deno.test("messages sent while a turn runs are queued, said so, and taken in order", () => {
  const chat = store();
  chat.enqueue("later\nwith two lines");
  chat.enqueue("last");
  assert.deepEqual(chat.snapshot().queued, ["later\nwith two lines", "last"]);
  assert.match(texts(chat)[0]!, /^notice:queued, sent when this answer ends: later …$/);
  assert.equal(chat.dequeue(), "later\nwith two lines");
  assert.equal(chat.dequeue(), "last");
  assert.equal(chat.dequeue(), undefined);
});

Deno.test("a new transcript generation starts only once the last one was printed", () => {
  const chat = store();
  for (let i = 0; i < GENERATION_SIZE + 5; i++) chat.notice(`n${i}`);
  // Nothing printed yet: every item is still in the one array <Static> will print from.
  assert.equal(chat.snapshot().transcript.generation, 0);
  assert.equal(chat.snapshot().transcript.items.length, GENERATION_SIZE + 5);
  chat.printed(0, GENERATION_SIZE + 5);
  chat.notice("after");
  const { generation, items } = chat.snapshot().transcript;
  assert.equal(generation, 1);
  assert.deepEqual(items.map((item) => "text" in item && item.text), ["after"]);
});

Deno.test("a permission question is answered by the person, or denied once its call aborts", async () => {
  const chat = store();
  const request = {
    toolName: "bash",
    args: { command: "ls" },
    preview: { kind: "command" as const, command: "ls", cwd: "/p" },
    scope: undefined,
  };
  const answered = chat.ask(request);
  assert.equal(chat.snapshot().question?.request, request);
  chat.snapshot().question!.answer({ approval: "approved" });
  assert.deepEqual(await answered, { approval: "approved" });
  assert.equal(chat.snapshot().question, undefined);
  const stop = new AbortController();
  const abandoned = chat.ask(request, stop.signal);
  stop.abort();
  assert.deepEqual(await abandoned, { approval: "denied" });
  assert.equal(chat.snapshot().question, undefined);
});

Deno.test("subscribers hear of changes once per gathering delay", async () => {
  const chat = new ChatStore({ width: () => 80, color: false, notifyDelayMs: 5 });
  let heard = 0;
  chat.subscribe(() => heard++);
  chat.beginTurn("a");
  chat.streamListeners().onText!("b");
  chat.streamListeners().onText!("c");
  assert.equal(heard, 0);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(heard, 1);
  chat.dispose();
});

Deno.test("a call a settings rule allowed or refused says which rule, in which file", () => {
  const chat = store();
  const permission = (effect: "allow" | "ask" | "deny", rule: string) => ({
    type: "permission" as const,
    callId: "c1",
    name: "bash",
    args: {},
    access: "confirm" as const,
    toolClass: "execute" as const,
    decision: effect,
    approval: null,
    executed: effect === "allow",
    byRule: { effect, rules: [{ rule, source: "/home/u/.hel/settings.jsonc" }] },
  });
  chat.onEvent(permission("allow", "bash(npm test:*)"));
  chat.onEvent(permission("deny", "bash(rm:*)"));
  chat.onEvent(permission("ask", "bash(git push:*)"));
  chat.onEvent({ ...permission("allow", "x"), byRule: undefined });
  assert.deepEqual(texts(chat), [
    "notice:bash: allowed without asking by the rule bash(npm test:*) in /home/u/.hel/settings.jsonc",
    "notice:bash: refused by the rule bash(rm:*) in /home/u/.hel/settings.jsonc",
  ]);
});
