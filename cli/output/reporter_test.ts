import assert from "node:assert/strict";
import { test } from "node:test";
import type { Run } from "../../agent/run.ts";
import type { ChatMessage } from "../../core/types.ts";
import { emptyUsage } from "../../core/usage.ts";
import { createReporter } from "./reporter.ts";

/** The parts of a run the reporter reads. */
function fakeRun(conversation: ChatMessage[]): Run {
  return {
    session: { id: "s1" },
    usage: emptyUsage(),
    model: "m",
    baseUrl: "http://localhost:1/v1",
    access: "auto",
    tools: () => [{ name: "read_file", summary: "" }],
    conversation: () => conversation,
  } as unknown as Run;
}

const call = (id: string) => ({
  id,
  type: "function" as const,
  function: { name: "read_file", arguments: '{"path":"a"}' },
});

test("calls hel answered without running them still get a tool_result, from the conversation", () => {
  const lines: Record<string, unknown>[] = [];
  const reporter = createReporter("stream-json", (line) => lines.push(line), () => 0);
  const reply = {
    role: "assistant" as const,
    content: null,
    tool_calls: [call("ran"), call("cut")],
  };
  const conversation: ChatMessage[] = [
    reply,
    { role: "tool", tool_call_id: "ran", content: "a" },
    {
      role: "tool",
      tool_call_id: "cut",
      content: "error: interrupted by the user before this call ran",
    },
  ];
  reporter.started(fakeRun(conversation), "/p");
  reporter.onEvent({
    type: "model_reply",
    purpose: "conversation",
    durationMs: 5,
    reply: { ok: true, message: reply, finishReason: "tool_calls", usage: undefined, model: "m" },
  });
  reporter.onEvent({
    type: "tool_call",
    callId: "ran",
    name: "read_file",
    args: { path: "a" },
    category: "read",
    ok: true,
    status: "done",
    text: "a",
  });
  reporter.finished({ termination: "interrupted", finalText: null, error: "interrupted" });
  // deno-lint-ignore no-explicit-any
  const results = lines.filter((line) => line.type === "user").map((line: any) =>
    line.message.content[0]
  );
  assert.deepEqual(results, [
    { type: "tool_result", tool_use_id: "ran", content: "a", is_error: false, status: "done" },
    {
      type: "tool_result",
      tool_use_id: "cut",
      content: "error: interrupted by the user before this call ran",
      is_error: true,
      status: "not_run",
    },
  ]);
  const result = lines.at(-1)!;
  assert.deepEqual(
    [result.type, result.subtype, result.duration_api_ms, result.tool_calls],
    ["result", "error_interrupted", 5, 2],
  );
});

test("with json nothing is written before the result, and lines before the start wait for it", () => {
  const json: Record<string, unknown>[] = [];
  const quiet = createReporter("json", (line) => json.push(line), () => 0);
  quiet.onEvent({ type: "warning", text: "early" });
  quiet.started(fakeRun([]), "/p");
  quiet.stream.onText?.("x");
  quiet.finished({ termination: "completed", finalText: "x", error: null });
  assert.deepEqual(json.map((line) => line.type), ["result"]);

  const stream: Record<string, unknown>[] = [];
  const reporter = createReporter("stream-json", (line) => stream.push(line), () => 0);
  reporter.onEvent({ type: "warning", text: "early" });
  reporter.started(fakeRun([]), "/p");
  assert.deepEqual(stream.map((line) => [line.subtype, line.session_id]), [
    ["init", "s1"],
    ["warning", "s1"],
  ]);
});
