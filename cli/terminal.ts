/**
 * The terminal: one line reader over stdin shared by the chat prompt, permission questions and
 * trust reviews, so they never compete for input.
 *
 * @module
 */
import { beginQuestion, writeErr } from "../kit/output.ts";
import { surroundings } from "../kit/surroundings.ts";

/** Reads stdin line by line. */
export class LineReader {
  #reader: ReadableStreamDefaultReader<string> | undefined;
  #buffer = "";
  #ended = false;
  /** The read in flight. Its data goes to the buffer even if the line it was for is dropped. */
  #filling: Promise<void> | undefined;

  /**
   * The next line without its newline, or undefined at end of input or once `signal` aborts
   * (Ctrl-C at a question); input typed after that is kept for the next read.
   */
  async readLine(signal?: AbortSignal): Promise<string | undefined> {
    while (true) {
      const newline = this.#buffer.indexOf("\n");
      if (newline >= 0) {
        const line = this.#buffer.slice(0, newline).replace(/\r$/, "");
        this.#buffer = this.#buffer.slice(newline + 1);
        return line;
      }
      if (this.#ended) {
        if (this.#buffer === "") return undefined;
        const rest = this.#buffer;
        this.#buffer = "";
        return rest;
      }
      if (signal?.aborted || !await untilAborted(this.#fill(), signal)) return undefined;
    }
  }

  #fill(): Promise<void> {
    this.#reader ??= surroundings().stdin.readable().pipeThrough(new TextDecoderStream())
      .getReader();
    // A read error counts as the end of input: an abandoned read must not reject unheard.
    return this.#filling ??= this.#reader.read().then(({ value, done }) => {
      if (done) this.#ended = true;
      else this.#buffer += value;
    }, () => {
      this.#ended = true;
    }).finally(() => this.#filling = undefined);
  }

  /**
   * Hands everything typed from now on to `onText` as it arrives, what was typed ahead first,
   * until the returned function is called: the full-screen chat reads keys through here, so
   * stdin keeps one reader (a second would take keys the first had asked for).
   */
  forward(onText: (text: string) => void): () => void {
    let stopped = false;
    void (async () => {
      while (!stopped) {
        if (this.#buffer !== "") {
          const text = this.#buffer;
          this.#buffer = "";
          onText(text);
        }
        if (this.#ended) return;
        await this.#fill();
      }
    })();
    return () => stopped = true;
  }

  /**
   * Reads what is left on stdin, line ends as `\n`, stopping once more than `maxChars` have
   * arrived (`complete` false then), so an endless or huge input cannot fill memory.
   */
  async readRest(maxChars: number): Promise<{ text: string; complete: boolean }> {
    while (!this.#ended && this.#buffer.length <= maxChars) await this.#fill();
    const text = this.#buffer.replaceAll("\r\n", "\n");
    this.#buffer = "";
    return { text, complete: this.#ended && text.length <= maxChars };
  }
}

/** Waits for `work`; false when `signal` aborts first (the work goes on). */
function untilAborted(work: Promise<void>, signal: AbortSignal | undefined): Promise<boolean> {
  if (!signal) return work.then(() => true);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(false);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(() => resolve(true), reject).finally(() =>
      signal.removeEventListener("abort", onAbort)
    );
  });
}

/**
 * Asks a question on stderr and reads the answer, when stdin is a terminal. Undefined when
 * there is no terminal, input ended, or `signal` aborted (Ctrl-C) while waiting.
 */
export async function askOnTerminal(
  reader: LineReader,
  question: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
  if (!surroundings().stdin.isTerminal()) return undefined;
  beginQuestion();
  writeErr(question);
  const line = await reader.readLine(signal);
  if (line === undefined && signal?.aborted) writeErr("\n"); // end the question's line
  return line?.trim();
}
