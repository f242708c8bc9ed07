/**
 * Splits a stdio server's output into lines (LF, a CR before it dropped), as the SDK's
 * `ReadBuffer` does, in time linear in what arrives: each byte is searched for a line end once,
 * the pieces of a line are kept as they came and joined and decoded once, when the line is
 * complete (Deno's TextDecoder is about twice as fast as node:buffer's concat and toString). The
 * part of a line still open when a chunk ends is copied into 64 KiB blocks, never kept as a view:
 * Deno hands out each read of a pipe as a view of its own 64 KiB buffer, so a server writing a
 * byte at a time would otherwise make hel hold 64 KiB for each byte. A line
 * over the bound is not kept: the reader skips to its end holding only its first and last few
 * bytes (message_size.ts), and hands those out instead, so one oversized message costs the call
 * it answers and not the connection.
 *
 * @module
 */
import { concatBytes } from "../../kit/mod.ts";
import { HEAD_BYTES, type SkippedMessage, TAIL_BYTES } from "./message_size.ts";

/**
 * A complete line; the start of one that went over the bound (`over`: its head and the size so
 * far; the rest is being skipped); or, at its end, what was kept of it (`skipped`).
 */
export type ReadLine = { line: string } | { over: SkippedMessage } | { skipped: SkippedMessage };

/** See the module comment. */
export class LineReader {
  /** Full blocks of the open line. */
  #blocks: Uint8Array[] = [];
  /** The block being filled (reused for the next line when it was the only one). */
  #block: Uint8Array | undefined;
  #used = 0;
  /** Bytes of the open line held in blocks. */
  #length = 0;
  /** The line's last part, a view of the chunk that ends it (read before push returns). */
  #last: Uint8Array | undefined;
  /** The line being skipped, once it went over the bound. */
  #skipping: { head: Uint8Array; tail: Uint8Array; size: number } | undefined;
  readonly #maxBytes: number;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Takes in `chunk` and returns the lines it completed, in order. */
  push(chunk: Uint8Array): ReadLine[] {
    const lines: ReadLine[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const end = chunk.indexOf(10, start);
      const over = this.#add(chunk.subarray(start, end === -1 ? chunk.length : end), end !== -1);
      if (over) lines.push({ over });
      if (end === -1) break;
      lines.push(this.#take());
      start = end + 1;
    }
    return lines;
  }

  /** Forgets a partial line (the connection ended). */
  clear(): void {
    this.#drop();
    this.#block = undefined;
    this.#skipping = undefined;
  }

  /**
   * Adds part of a line (`ends`: the chunk has the line's end right after it); returns its
   * head when this part took the line over the bound.
   */
  #add(part: Uint8Array, ends: boolean): SkippedMessage | undefined {
    if (part.length === 0) return undefined;
    const skipping = this.#skipping;
    if (skipping) {
      skipping.size += part.length;
      skipping.tail = lastBytes([skipping.tail, part]);
      return undefined;
    }
    if (this.#length + part.length <= this.#maxBytes) {
      if (ends) this.#last = part;
      else this.#keep(part);
      return undefined;
    }
    const all = [...this.#held(), part];
    const head = firstBytes(all);
    const size = this.#length + part.length;
    this.#skipping = { head, tail: lastBytes(all), size };
    this.#drop();
    return { head, tail: new Uint8Array(), size };
  }

  /** Copies `part` into the blocks. */
  #keep(part: Uint8Array): void {
    let from = 0;
    while (from < part.length) {
      const block = this.#block ??= new Uint8Array(BLOCK_BYTES);
      const take = Math.min(part.length - from, BLOCK_BYTES - this.#used);
      block.set(part.subarray(from, from + take), this.#used);
      this.#used += take;
      from += take;
      if (this.#used === BLOCK_BYTES) {
        this.#blocks.push(block);
        this.#block = undefined;
        this.#used = 0;
      }
    }
    this.#length += part.length;
  }

  /** The open line's bytes so far, in order. */
  #held(): Uint8Array[] {
    const held = [...this.#blocks];
    if (this.#block && this.#used > 0) held.push(this.#block.subarray(0, this.#used));
    if (this.#last) held.push(this.#last);
    return held;
  }

  /** Forgets the open line (a lone block stays, to be filled again). */
  #drop(): void {
    this.#blocks = [];
    this.#used = 0;
    this.#length = 0;
    this.#last = undefined;
  }

  #take(): ReadLine {
    const skipping = this.#skipping;
    if (skipping) {
      this.#skipping = undefined;
      const tail = skipping.size > HEAD_BYTES ? skipping.tail : new Uint8Array();
      return { skipped: { head: skipping.head, tail, size: skipping.size } };
    }
    const pieces = this.#held();
    const length = this.#length + (this.#last?.length ?? 0);
    if (this.#blocks.length > 0) this.#block = undefined; // a long line's blocks all go
    this.#drop();
    if (length === 0) return { line: "" };
    const whole = pieces.length === 1 ? pieces[0]! : concatBytes(pieces);
    pieces.length = 0; // the pieces can go before the text is made
    const end = whole[length - 1] === 13 ? length - 1 : length;
    // Decoded before the next push, which may fill the lone block again.
    return { line: DECODER.decode(whole.subarray(0, end)) };
  }
}

/** The size of the blocks an open line is copied into. */
const BLOCK_BYTES = 64 * 1024;

/** Decodes whole lines (a line end never splits a character), bad bytes as U+FFFD. */
const DECODER = new TextDecoder();

/** A copy of the first {@link HEAD_BYTES} of `parts`. */
function firstBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(Math.min(HEAD_BYTES, parts.reduce((n, p) => n + p.length, 0)));
  let offset = 0;
  for (const part of parts) {
    if (offset === out.length) break;
    const take = part.subarray(0, out.length - offset);
    out.set(take, offset);
    offset += take.length;
  }
  return out;
}

/** A copy of the last {@link TAIL_BYTES} of `parts` (never a view that holds a whole chunk). */
function lastBytes(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(Math.min(TAIL_BYTES, total));
  let end = out.length;
  for (let index = parts.length - 1; index >= 0 && end > 0; index--) {
    const part = parts[index]!;
    const take = part.subarray(Math.max(0, part.length - end));
    out.set(take, end - take.length);
    end -= take.length;
  }
  return out;
}
