/**
 * The terminal: one line reader over stdin shared by the chat prompt, permission questions and
 * trust reviews, so they never compete for input.
 *
 * @module
 */

/** Reads stdin line by line. */
export class LineReader {
  #reader: ReadableStreamDefaultReader<string> | undefined;
  #buffer = "";
  #ended = false;

  /** The next line without its newline, or undefined at end of input. */
  async readLine(): Promise<string | undefined> {
    this.#reader ??= Deno.stdin.readable.pipeThrough(new TextDecoderStream()).getReader();
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
      const { value, done } = await this.#reader.read();
      if (done) this.#ended = true;
      else this.#buffer += value;
    }
  }

  /** Reads everything left on stdin. */
  async readAll(): Promise<string> {
    const lines: string[] = [];
    for (let line = await this.readLine(); line !== undefined; line = await this.readLine()) {
      lines.push(line);
    }
    return lines.join("\n");
  }
}

const encoder = new TextEncoder();

/** True while streamed answer text on stdout has not ended its line. */
let streamedMidLine = false;

/**
 * Writes text to stderr without a newline. Streamed answer text that has not ended its line
 * is ended first, so a `[tool]` line or a warning starts on a line of its own on the
 * terminal instead of being glued to "Let me look." and the next answer.
 */
export function writeErr(text: string): void {
  if (streamedMidLine) writeOut("\n");
  Deno.stderr.writeSync(encoder.encode(text));
}

/** Writes text to stdout without a newline. */
export function writeOut(text: string): void {
  Deno.stdout.writeSync(encoder.encode(text));
  if (text !== "") streamedMidLine = false;
}

/** Writes a piece of streamed answer text to stdout (see {@link writeErr}). */
export function writeStreamed(text: string): void {
  writeOut(text);
  if (text !== "") streamedMidLine = !text.endsWith("\n");
}

/**
 * Asks a question on stderr and reads the answer, when stdin is a terminal. Undefined when
 * there is no terminal or input ended.
 */
export async function askOnTerminal(
  reader: LineReader,
  question: string,
): Promise<string | undefined> {
  if (!Deno.stdin.isTerminal()) return undefined;
  writeErr(question);
  const line = await reader.readLine();
  return line?.trim();
}
