import assert from "node:assert/strict";
import type { ChatMessage } from "../core/types.ts";
import { addRequestNotes } from "./request_notes.ts";

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
