import assert from "node:assert/strict";
import type { ChatMessage, ToolMedia } from "../../core/types.ts";
import { ATTACHED_INTRO, withMediaParts } from "./media_parts.ts";
import { MAX_KEPT_MEDIA, MediaShelf } from "../media_shelf.ts";

const image = (data: string, mimeType = "image/png"): ToolMedia => ({
  kind: "image",
  mimeType,
  data,
  bytes: 3,
  marker: `[image: ${mimeType}, 3 B]`,
});
const wav: ToolMedia = {
  kind: "audio",
  mimeType: "audio/wav",
  data: "UklG",
  bytes: 3,
  marker: "[audio: audio/wav, 3 B]",
};

const messages: ChatMessage[] = [
  { role: "user", content: "look" },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "a", type: "function", function: { name: "shot", arguments: "{}" } },
      { id: "b", type: "function", function: { name: "say", arguments: "{}" } },
    ],
  },
  { role: "tool", tool_call_id: "a", content: "[image: image/png, 3 B]" },
  {
    role: "tool",
    tool_call_id: "b",
    content: "[audio: audio/wav, 3 B]\n[image: image/svg+xml, 3 B]",
  },
  { role: "assistant", content: "seen" },
];
const media = new Map([["a", [image("AAAA")]], ["b", [wav, image("BBBB", "image/svg+xml")]]]);

Deno.test("accepted media follow the tool messages of their response in one user message", () => {
  const sent = withMediaParts(messages, media, ["text", "image", "audio"]);
  assert.deepEqual(sent.slice(0, 4), messages.slice(0, 4));
  assert.deepEqual(sent[4], {
    role: "user",
    content: [
      { type: "text", text: ATTACHED_INTRO },
      { type: "text", text: "[image: image/png, 3 B] from call a:" },
      { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
      { type: "text", text: "[audio: audio/wav, 3 B] from call b:" },
      { type: "input_audio", input_audio: { data: "UklG", format: "wav" } },
      // SVG has no part in Chat Completions: it stays the marker in its tool message.
    ],
  });
  assert.deepEqual(sent[5], messages[4]);
});

Deno.test("a text-only model, or one without audio, gets no parts it cannot take", () => {
  assert.equal(withMediaParts(messages, media, ["text"]), messages);
  const imagesOnly = withMediaParts(messages, media, ["text", "image"]);
  const parts = (imagesOnly[4] as { content: { type: string }[] }).content.map((p) => p.type);
  assert.deepEqual(parts, ["text", "text", "image_url"]);
  assert.equal(withMediaParts(messages, undefined, ["text", "image"]), messages);
});

Deno.test("the shelf keeps only the newest media, so old images stop costing every request", () => {
  const shelf = new MediaShelf();
  assert.equal(shelf.media(), undefined);
  for (let call = 0; call < MAX_KEPT_MEDIA + 2; call++) shelf.add(`c${call}`, [image(`D${call}`)]);
  assert.deepEqual([...shelf.media()!.keys()], ["c2", "c3", "c4", "c5"]);
  shelf.clear();
  assert.equal(shelf.media(), undefined);
});
