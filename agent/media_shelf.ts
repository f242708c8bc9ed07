/**
 * The images and audio of a conversation's latest tool results, kept beside the conversation
 * for the model client (ModelRequest.media). Each request sends the whole conversation, so
 * every image kept here is paid for again in every request: only the newest few are kept (at
 * most {@link MAX_KEPT_MEDIA}, {@link MAX_KEPT_CHARS} of data together); older ones are read as
 * the markers their results hold. Nothing here is journaled: a resumed session has markers only.
 *
 * @module
 */
import type { ToolMedia } from "../core/types.ts";

/** Images and audio kept for the next requests. */
export const MAX_KEPT_MEDIA = 4;
/** Base64 characters kept together (about 12 MiB of images). */
export const MAX_KEPT_CHARS = 16 * 1024 * 1024;

/** The latest media by the tool call that returned them. */
export class MediaShelf {
  #items: { callId: string; item: ToolMedia }[] = [];
  #view: Map<string, ToolMedia[]> | undefined;

  /** Keeps the media of call `callId`, dropping the oldest past the bounds. */
  add(callId: string, media: readonly ToolMedia[]): void {
    for (const item of media) this.#items.push({ callId, item });
    let chars = this.#items.reduce((sum, { item }) => sum + item.data.length, 0);
    while (this.#items.length > MAX_KEPT_MEDIA || chars > MAX_KEPT_CHARS) {
      chars -= this.#items.shift()!.item.data.length;
    }
    this.#view = undefined;
  }

  /** Forgets everything (a new or resumed conversation). */
  clear(): void {
    this.#items = [];
    this.#view = undefined;
  }

  /** What is kept, by call id; undefined when nothing is. */
  media(): ReadonlyMap<string, readonly ToolMedia[]> | undefined {
    if (this.#items.length === 0) return undefined;
    if (!this.#view) {
      this.#view = new Map();
      for (const { callId, item } of this.#items) {
        this.#view.set(callId, [...(this.#view.get(callId) ?? []), item]);
      }
    }
    return this.#view;
  }
}
