/**
 * A server's stderr, always drained (a full pipe would stall the server) and kept only as a
 * bounded tail for the run's trace and for failure messages. It never reaches the model or
 * hel's own output.
 *
 * @module
 */
import { concatBytes } from "../../kit/mod.ts";
import { stderrEnding } from "./stderr_lines.ts";

/** How much of a server's stderr is kept (the most recent bytes). */
export const STDERR_TAIL_BYTES = 64 * 1024;

/** The most recent bytes a server wrote to stderr. */
export class StderrTail {
  #chunks: Uint8Array[] = [];
  #size = 0;
  /** Bytes dropped from the front to stay within the bound. */
  dropped = 0;

  constructor(readonly limit = STDERR_TAIL_BYTES) {}

  /** Adds a chunk, dropping the oldest bytes beyond the limit. */
  append(chunk: Uint8Array): void {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    while (this.#size > this.limit && this.#chunks.length > 0) {
      const first = this.#chunks[0]!;
      const excess = this.#size - this.limit;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#size -= first.length;
        this.dropped += first.length;
      } else {
        this.#chunks[0] = first.subarray(excess);
        this.#size -= excess;
        this.dropped += excess;
      }
    }
  }

  /** Everything kept, as text. */
  text(): string {
    return new TextDecoder().decode(concatBytes(this.#chunks));
  }

  /**
   * The last non-blank lines that say something (runtimes' framing skipped: stderr_lines.ts),
   * each cut short and with control characters escaped.
   */
  lastLines(count = 3, width = 240): string[] {
    return stderrEnding(this.text(), count, width);
  }
}
