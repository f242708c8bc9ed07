/**
 * Images and audio from tool results as Chat Completions content parts. A `tool` message
 * carries text only, so the parts follow the tool messages of one response in a user message
 * of their own (as pi, OpenCode and other Chat Completions clients do), each after a line with
 * the marker that stands for it in its result and the call it came from. Only what the model
 * is declared to accept (`modelInput`) and the API has a part for is attached: PNG, JPEG, GIF
 * and WebP images as `image_url` data URLs, WAV and MP3 audio as `input_audio`. Everything else
 * stays the marker the tool message holds, which is all a text-only model ever reads.
 *
 * @module
 */
import type { ChatMessage, ToolMedia } from "../../core/types.ts";

/** What a model may be declared to take as input (`modelInput`, `--model-input`). */
export const MODEL_INPUTS = ["text", "image", "audio"] as const;

/** One kind of model input. */
export type ModelInput = (typeof MODEL_INPUTS)[number];

/** The image types Chat Completions servers take as `image_url` data URLs. */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** The audio types `input_audio` takes, by its `format` names. */
const AUDIO_FORMATS: Readonly<Record<string, "wav" | "mp3">> = {
  "audio/wav": "wav",
  "audio/wave": "wav",
  "audio/x-wav": "wav",
  "audio/vnd.wave": "wav",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
};

/** The text the user message of attached media begins with. */
export const ATTACHED_INTRO =
  "The tool results above returned these images or audio (not typed by the user); each follows " +
  "the marker that stands for it in its result:";

/**
 * `messages` as the request sends them: the user message of attached media after each run of
 * tool messages that has any the model accepts. Unchanged when nothing is attached.
 */
export function withMediaParts(
  messages: readonly ChatMessage[],
  media: ReadonlyMap<string, readonly ToolMedia[]> | undefined,
  accepts: readonly ModelInput[],
): readonly unknown[] {
  if (!media || media.size === 0 || !accepts.some((kind) => kind !== "text")) return messages;
  const sent: unknown[] = [];
  let parts: unknown[] = [];
  const attach = () => {
    if (parts.length === 0) return;
    sent.push({ role: "user", content: [{ type: "text", text: ATTACHED_INTRO }, ...parts] });
    parts = [];
  };
  for (const message of messages) {
    if (message.role !== "tool") attach();
    sent.push(message);
    if (message.role !== "tool") continue;
    for (const item of media.get(message.tool_call_id) ?? []) {
      const part = contentPart(item, accepts);
      if (!part) continue;
      parts.push({ type: "text", text: `${item.marker} from call ${message.tool_call_id}:` }, part);
    }
  }
  attach();
  return sent;
}

/** The content part for `item`, or undefined when the model or the API cannot take it. */
function contentPart(
  item: ToolMedia,
  accepts: readonly ModelInput[],
): Record<string, unknown> | undefined {
  const type = item.mimeType.toLowerCase();
  if (item.kind === "image" && accepts.includes("image") && IMAGE_TYPES.has(type)) {
    return { type: "image_url", image_url: { url: `data:${type};base64,${item.data}` } };
  }
  const format = AUDIO_FORMATS[type];
  if (item.kind === "audio" && accepts.includes("audio") && format) {
    return { type: "input_audio", input_audio: { data: item.data, format } };
  }
  return undefined;
}
