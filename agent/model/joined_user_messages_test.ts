import assert from "node:assert/strict";
import { joinAdjacentUserMessages } from "./joined_user_messages.ts";

Deno.test("consecutive user messages are sent as one; other roles are left alone", () => {
  const image = { type: "image_url", image_url: { url: "data:image/png;base64,AA==" } };
  const sent = joinAdjacentUserMessages([
    { role: "system", content: "s" },
    { role: "user", content: "[hel: note]" },
    { role: "user", content: "the person's message" },
    { role: "assistant", content: "", tool_calls: [] },
    { role: "tool", tool_call_id: "c", content: "r" },
    { role: "user", content: [{ type: "text", text: "images:" }, image] },
    { role: "user", content: "[hel: another note]" },
  ]);
  assert.deepEqual(sent, [
    { role: "system", content: "s" },
    { role: "user", content: "[hel: note]\n\nthe person's message" },
    { role: "assistant", content: "", tool_calls: [] },
    { role: "tool", tool_call_id: "c", content: "r" },
    {
      role: "user",
      content: [
        { type: "text", text: "images:" },
        image,
        { type: "text", text: "[hel: another note]" },
      ],
    },
  ]);
});
