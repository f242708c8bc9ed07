/**
 * The read cursors of `read_file`: where a truncated read stopped, under an opaque id. A cursor
 * remembers the file's identity so it is refused once the file changed. At most
 * {@link MAX_CURSORS} are kept (the oldest is dropped); they belong to this session and are
 * saved with the plugin's state.
 *
 * @module
 */
import type { FileIdentity } from "../../../kit/mod.ts";

/** Cursors kept at most; older ones expire. */
export const MAX_CURSORS = 128;

/** Where a read continues. */
export interface Cursor {
  /** Canonical path of the file. */
  path: string;
  /** Byte offset of the next unread byte. */
  offset: number;
  /** Lines still to deliver when the read had `max_lines`; undefined for no limit. */
  remainingLines: number | undefined;
  identity: FileIdentity;
  /** The line a paused `start_line` search looks for (from 1). */
  line?: number;
  /** Line breaks still to pass from `offset` before reading (a paused search); 0 if absent. */
  skipLines?: number;
}

/** A bounded, insertion-ordered store of cursors. */
export class CursorStore {
  #cursors = new Map<string, Cursor>();

  /** Stores a cursor and returns its new id, dropping the oldest beyond the bound. */
  add(cursor: Cursor): string {
    const id = crypto.randomUUID();
    this.#cursors.set(id, cursor);
    while (this.#cursors.size > MAX_CURSORS) {
      const oldest = this.#cursors.keys().next().value as string;
      this.#cursors.delete(oldest);
    }
    return id;
  }

  get(id: string): Cursor | undefined {
    return this.#cursors.get(id);
  }

  get size(): number {
    return this.#cursors.size;
  }

  /** JSON for the session snapshot. */
  save(): [string, Cursor][] {
    return [...this.#cursors.entries()];
  }

  /** Restores what {@link save} returned; malformed entries are skipped. */
  restore(state: unknown): void {
    this.#cursors.clear();
    if (!Array.isArray(state)) return;
    for (const entry of state.slice(-MAX_CURSORS)) {
      if (!Array.isArray(entry) || typeof entry[0] !== "string") continue;
      const cursor = entry[1] as Cursor | undefined;
      if (
        cursor && typeof cursor.path === "string" && typeof cursor.offset === "number" &&
        cursor.identity && typeof cursor.identity === "object" &&
        ["line", "skipLines"].every((key) => {
          const value = (cursor as unknown as Record<string, unknown>)[key];
          return value === undefined || (Number.isSafeInteger(value) && (value as number) >= 0);
        })
      ) {
        this.#cursors.set(entry[0], cursor);
      }
    }
  }
}
