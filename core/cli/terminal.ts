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

/** Writes text to stderr without a newline. */
export function writeErr(text: string): void {
  Deno.stderr.writeSync(encoder.encode(text));
}

/** Writes text to stdout without a newline. */
export function writeOut(text: string): void {
  Deno.stdout.writeSync(encoder.encode(text));
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
