/**
 * The chat's finished items, in the order they happened, for Ink's `<Static>`: each is printed
 * once into the scrollback and never redrawn.
 *
 * `<Static>` notices new items by a new array and prints those past the count it has seen.
 * Copying one ever-growing array per item would cost more with every item, so items come in
 * generations: once the app has printed a generation of {@link GENERATION_SIZE} items, the next
 * item starts a new array (the app remounts `<Static>` by the generation as its key), and a
 * copy never holds more than one generation.
 *
 * @module
 */
import type { ToolActivityState } from "./tool_activity.tsx";

/** Items per generation. */
export const GENERATION_SIZE = 64;

/** One finished thing in the transcript; all text is already neutralised. */
export type TranscriptItem =
  /** hel's greeting: model, session. */
  | { kind: "banner"; text: string }
  /** What the person sent. */
  | { kind: "user"; text: string }
  /**
   * A rendered piece of the answer (markdown, hel's styling included). The renderer begins a
   * piece that follows another block with its blank line; `first` marks an answer's first
   * piece, which the chat sets off itself.
   */
  | { kind: "answer"; text: string; first?: boolean }
  /** The model's reasoning for one request; `expanded` when shown whole on request (ctrl+o). */
  | { kind: "reasoning"; text: string; expanded?: boolean }
  /** A finished tool call; `expanded` when shown whole on request (ctrl+o). */
  | { kind: "tool"; call: ToolActivityState; expanded?: boolean }
  /** A line of hel's: interrupted, queued, a command's output, a warning. */
  | { kind: "notice"; text: string; tone: NoticeTone };

/** How a notice reads: dimmed, as plain text (a command's output), or as a warning or error. */
export type NoticeTone = "info" | "plain" | "warning" | "error";

/** An item that can be shown whole on request: a tool call or reasoning. */
export type ExpandableItem = Extract<TranscriptItem, { kind: "tool" | "reasoning" }>;

/** A transcript item with its key for React. */
export type KeyedItem = TranscriptItem & { key: number };

/** The transcript; see the module comment. */
export class Transcript {
  #generation = 0;
  #items: KeyedItem[] = [];
  #printed = 0;
  #nextKey = 0;
  #lastExpandable: ExpandableItem | undefined;

  /** Adds an item (kept until it is printed). */
  add(item: TranscriptItem): void {
    if (this.#printed === this.#items.length && this.#items.length >= GENERATION_SIZE) {
      this.#generation++;
      this.#items = [];
      this.#printed = 0;
    }
    this.#items = [...this.#items, { ...item, key: this.#nextKey++ }];
    if (item.kind === "tool" || item.kind === "reasoning") this.#lastExpandable = item;
  }

  /** What `<Static>` is given: the generation (its key) and its items. */
  view(): { generation: number; items: readonly KeyedItem[] } {
    return { generation: this.#generation, items: this.#items };
  }

  /** Records that `count` items of `generation` are on the screen. */
  printed(generation: number, count: number): void {
    if (generation === this.#generation) this.#printed = Math.max(this.#printed, count);
  }

  /** The last tool call or reasoning added. */
  lastExpandable(): ExpandableItem | undefined {
    return this.#lastExpandable;
  }
}
