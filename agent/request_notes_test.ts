import assert from "node:assert/strict";
import type { ChatMessage } from "../core/types.ts";
import type { Plugin } from "../core/plugin.ts";
import { addRequestNotes } from "./request_notes.ts";
import { NEVER, startTestRun } from "./run_testing.ts";

Deno.test("a note at the start of a turn goes before the person's message, which stays last", () => {
  const messages: ChatMessage[] = [
    { role: "system", content: "s" },
    { role: "user", content: "use the new tool" },
  ];
  addRequestNotes(messages, ["tools changed", "more"]);
  assert.deepEqual(messages.slice(1), [
    { role: "user", content: "tools changed\n\nmore" },
    { role: "user", content: "use the new tool" },
  ]);
});

Deno.test("a note later in a turn follows the tool results; no note adds nothing", () => {
  const messages: ChatMessage[] = [
    { role: "system", content: "s" },
    { role: "user", content: "go" },
    { role: "assistant", content: null, tool_calls: [] },
    { role: "tool", tool_call_id: "a", content: "done" },
  ];
  addRequestNotes(messages, []);
  assert.equal(messages.length, 4);
  addRequestNotes(messages, ["tools changed"]);
  assert.deepEqual(messages.at(-1), { role: "user", content: "tools changed" });
});

Deno.test("a plugin's note reaches the model's next request once, before the person's message, and stays in the conversation", async () => {
  const pending = ["tools changed"];
  const plugin: Plugin = {
    name: "notes",
    description: "notes",
    hooks: ["requestNote"],
    setup: () => ({ requestNote: () => Promise.resolve(pending.shift()) }),
  };
  await using t = await startTestRun({
    plugins: () => [plugin],
    turns: { m: [{ text: "first" }, { text: "second" }] },
  });
  await t.run.turn("go", NEVER);
  await t.run.turn("again", NEVER);
  const requests = t.models.get("m")!.requests;
  assert.deepEqual(requests[0]!.messages.slice(1), [
    { role: "user", content: "tools changed" },
    { role: "user", content: "go" },
  ]);
  assert.deepEqual(requests[1]!.messages.slice(-2), [
    { role: "assistant", content: "first" },
    { role: "user", content: "again" },
  ]);
  assert.deepEqual(t.run.conversation().slice(0, 2), requests[0]!.messages.slice(1));
});
