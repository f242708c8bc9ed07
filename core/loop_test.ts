import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_CALLS_PER_RESPONSE, MAX_SAME_FAILURES, runLoop } from "./loop.ts";
import type { ModelClient } from "./model.ts";
import type { AssistantMessage, ChatMessage, ToolCall } from "./types.ts";
import { emptyUsage } from "./usage.ts";
// The scripted model every test plays (no I/O): a test's fixture, not a kernel dependency.
// deno-lint-ignore boundaries/core-imports
import { type ScriptedCall, scriptedClient, type ScriptTurn } from "../fixtures/scripted_client.ts";

/** Every reply reports 100 tokens in (40 of them cached) and 5 out. */
const scripted = (turns: ScriptTurn[]) =>
  scriptedClient(turns, { usage: { promptTokens: 100, completionTokens: 5, cachedTokens: 40 } });

const call = (id: string, name: string, args = "{}"): ScriptedCall => ({
  id,
  name,
  arguments: args,
});

function deps(model: ModelClient, executed: string[] = [], maxTurns = 5) {
  return {
    model,
    toolDefinitions: () => [],
    executeToolCall: (c: ToolCall) => {
      executed.push(c.function.name);
      return Promise.resolve(`result of ${c.function.name}`);
    },
    maxTurns,
    usage: emptyUsage(),
    signal: new AbortController().signal,
  };
}

test("runLoop() runs the calls of one response in order and answers each", async () => {
  const model = scripted([
    { toolCalls: [call("a", "first"), call("b", "second")], reasoning: "think" },
    { text: "done" },
  ]);
  const messages: ChatMessage[] = [{ role: "user", content: "go" }];
  const executed: string[] = [];
  const outcome = await runLoop(messages, deps(model, executed));
  assert.deepEqual(outcome, { termination: "completed", finalText: "done", error: null });
  assert.deepEqual(executed, ["first", "second"]);
  assert.deepEqual(messages.slice(2, 4).map((m) => m.role === "tool" && m.tool_call_id), [
    "a",
    "b",
  ]);
  // The assistant message goes back unchanged, reasoning_content included.
  assert.equal((model.requests[1]!.messages[1] as AssistantMessage).reasoning_content, "think");
});

test("runLoop() stops at maxTurns with an error outcome", async () => {
  const model = scripted([
    { toolCalls: [call("a", "t")] },
    { toolCalls: [call("b", "t")] },
  ]);
  const outcome = await runLoop([{ role: "user", content: "go" }], deps(model, [], 2));
  assert.equal(outcome.termination, "max_turns");
  assert.match(outcome.error ?? "", /stopped after 2 model calls/);
});

test("runLoop() turns a model failure into an error outcome and counts the call", async () => {
  const model = scripted([{ fail: 500, body: "HTTP 500" }]);
  const d = deps(model);
  const outcome = await runLoop([{ role: "user", content: "go" }], d);
  assert.deepEqual(outcome, { termination: "error", finalText: null, error: "HTTP 500" });
  assert.equal(d.usage.modelCalls, 1);
  assert.equal(d.usage.answeredCalls, 0, "the call got no answer");
  assert.equal(d.usage.inputTokens, undefined, "usage is incomplete after a failed call");
});

test("runLoop() sums usage, cached tokens included", async () => {
  const model = scripted([{ toolCalls: [call("a", "t")] }, { text: "ok" }]);
  const d = deps(model);
  await runLoop([{ role: "user", content: "go" }], d);
  assert.deepEqual(d.usage, {
    modelCalls: 2,
    answeredCalls: 2,
    inputTokens: 200,
    outputTokens: 10,
    cachedTokens: 80,
  });
});

test("runLoop() leaves the usage totals known after an interrupted request", async () => {
  const controller = new AbortController();
  const model = scripted([() => {
    controller.abort(); // the person interrupts while the request is in flight
    return { text: "never heard" };
  }, { text: "ok" }]);
  const d = deps(model);
  const interrupted = await runLoop([{ role: "user", content: "go" }], {
    ...d,
    signal: controller.signal,
  });
  assert.equal(interrupted.termination, "interrupted");
  const next = await runLoop([{ role: "user", content: "again" }], d);
  assert.equal(next.termination, "completed");
  // The interrupted request reported nothing and counts for nothing; the totals stay known.
  assert.deepEqual(d.usage, {
    modelCalls: 1,
    answeredCalls: 1,
    inputTokens: 100,
    outputTokens: 5,
    cachedTokens: 40,
  });
});

test("runLoop() reports a cut-off answer as max_output_tokens", async () => {
  const model = scripted([{ text: "part", finishReason: "length" }]);
  const outcome = await runLoop([{ role: "user", content: "go" }], deps(model));
  assert.equal(outcome.termination, "max_output_tokens");
  assert.equal(outcome.finalText, "part");
});

test("runLoop() answers pending calls after an interrupt so the history stays valid", async () => {
  const controller = new AbortController();
  const model = scripted([{ toolCalls: [call("a", "first"), call("b", "second")] }]);
  const messages: ChatMessage[] = [{ role: "user", content: "go" }];
  const outcome = await runLoop(messages, {
    ...deps(model),
    signal: controller.signal,
    executeToolCall: () => {
      controller.abort();
      return Promise.resolve("ran");
    },
  });
  assert.equal(outcome.termination, "interrupted");
  assert.deepEqual(messages.slice(2).map((m) => m.content), [
    "ran",
    "error: interrupted by the user before this call ran",
  ]);
});

test("runLoop() answers calls over the per-response cap without running them", async () => {
  const many = Array.from({ length: MAX_CALLS_PER_RESPONSE + 2 }, (_, i) => call(`c${i}`, "t"));
  const model = scripted([{ toolCalls: many }, { text: "ok" }]);
  const messages: ChatMessage[] = [{ role: "user", content: "go" }];
  const executed: string[] = [];
  await runLoop(messages, deps(model, executed));
  assert.equal(executed.length, MAX_CALLS_PER_RESPONSE);
  const answers = messages.filter((m) => m.role === "tool");
  assert.equal(answers.length, many.length, "every call is answered");
  assert.match(
    String(answers.at(-1)?.content),
    /^error: not run: one response may ask for at most/,
  );
});

test("runLoop() stops when the same call fails the same way three times in a row", async () => {
  const bad = () => ({ toolCalls: [call(crypto.randomUUID(), "write", '{"path":"x"}')] });
  const model = scripted([bad(), bad(), bad(), { text: "never asked" }]);
  const messages: ChatMessage[] = [{ role: "user", content: "go" }];
  const outcome = await runLoop(messages, {
    ...deps(model),
    executeToolCall: () => Promise.resolve("error: permission denied: write"),
  });
  assert.equal(outcome.termination, "error");
  assert.match(
    outcome.error ?? "",
    new RegExp(`same failing call ${MAX_SAME_FAILURES} times.*\\(write\\)`),
  );
  assert.equal(model.requests.length, MAX_SAME_FAILURES);
  assert.equal(messages.at(-1)?.role, "tool", "every call was answered before stopping");
});

test("runLoop() goes on when failing calls differ or a call in between succeeds", async () => {
  const attempt = (path: string) => ({
    toolCalls: [call(crypto.randomUUID(), "read", JSON.stringify({ path }))],
  });
  const model = scripted([
    attempt("a"),
    attempt("a"),
    attempt("ok"),
    attempt("a"),
    attempt("a"),
    attempt("b"),
    { text: "done" },
  ]);
  const outcome = await runLoop([{ role: "user", content: "go" }], {
    ...deps(model, [], 10),
    executeToolCall: (c: ToolCall) =>
      Promise.resolve(c.function.arguments.includes("ok") ? "fine" : "error: not found"),
  });
  assert.equal(outcome.termination, "completed");
});
