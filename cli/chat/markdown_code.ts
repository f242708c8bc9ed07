/**
 * Code blocks: shown indented by two columns without their fences, highlighted when their
 * language is known (and colour is on), long lines cut to the width. A fenced block at the top
 * of an answer is rendered piece by piece as its lines arrive ({@link FencedCode}), so a long
 * one settles as it streams instead of being highlighted again and again.
 *
 * @module
 */
import { highlightCode, type Highlighted } from "./highlight.ts";
import { cutToWidth, expandTabs, type Line } from "./styled_text.ts";

/** Lines highlighted together before the first of them settle. */
export const CODE_PIECE_LINES = 32;

const INDENT = "  ";

function highlighted(code: string, language: string | undefined, color: boolean): Highlighted {
  if (color) return highlightCode(code, language);
  const lines = code.split("\n").map((text): Line => text === "" ? [] : [{ text, style: "" }]);
  return { lines, closedAfter: lines.map(() => true) };
}

/** Highlighted lines indented and cut to `width`. */
function shown(lines: readonly Line[], width: number): Line[] {
  const room = Math.max(1, width - INDENT.length);
  return lines.flatMap((line) =>
    line.length === 0
      ? [[]]
      : cutToWidth(line, room).map((piece): Line => [{ text: INDENT, style: "" }, ...piece])
  );
}

/** A whole code block (indented code, or code inside a list or quote). */
export function renderCode(
  text: string,
  language: string | undefined,
  width: number,
  color: boolean,
): Line[] {
  const code = text.replace(/\n+$/, "").split("\n").map((line) => expandTabs(line)).join("\n");
  return shown(highlighted(code, language, color).lines, width);
}

/** What the opening line of a fenced block says. */
export interface FenceOpener {
  /** Spaces before the fence, removed from each line of the block as far as they go. */
  indent: number;
  /** The fence itself: three or more backticks or tildes. */
  fence: string;
  language: string | undefined;
}

/** The opener on `line`, or undefined when it does not open a fenced block. */
export function parseFenceOpener(line: string): FenceOpener | undefined {
  const match = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(line);
  if (!match) return undefined;
  const [, spaces, fence, info] = match as unknown as [string, string, string, string];
  if (fence.startsWith("`") && info.includes("`")) return undefined;
  const language = info.trim().split(/\s+/)[0];
  return { indent: spaces.length, fence, language: language === "" ? undefined : language };
}

/**
 * A fenced block fed line by line. Every {@link CODE_PIECE_LINES} lines, the lines up to the
 * last one that ends outside any string or comment settle, so highlighting never restarts in
 * the middle of a construct that spans lines (unless one runs longer than a piece).
 */
export class FencedCode {
  readonly #opener: FenceOpener;
  readonly #closer: RegExp;
  readonly #width: number;
  readonly #color: boolean;
  #lines: string[] = [];
  #settled: Line[] = [];
  /** The unsettled lines as shown, kept until they change (the live part asks often). */
  #shownLines: Line[] | undefined;

  constructor(opener: FenceOpener, width: number, color: boolean) {
    this.#opener = opener;
    const char = opener.fence[0] === "`" ? "`" : "~";
    this.#closer = new RegExp(`^ {0,3}${opener.fence}${char}* *$`);
    this.#width = width;
    this.#color = color;
  }

  /** Takes the next line of the block; true when it is the closing fence (and so not code). */
  feed(line: string): boolean {
    if (this.#closer.test(line)) return true;
    this.#lines.push(this.#content(line));
    this.#shownLines = undefined;
    if (this.#lines.length >= CODE_PIECE_LINES) this.#settlePiece();
    return false;
  }

  /** A line as code: the opener's indentation removed (as far as it goes), tabs expanded. */
  #content(line: string): string {
    let text = line;
    for (let removed = 0; removed < this.#opener.indent && text.startsWith(" "); removed++) {
      text = text.slice(1);
    }
    return expandTabs(text);
  }

  #settlePiece(): void {
    const { lines, closedAfter } = this.#highlight(this.#lines);
    // The last line's end is where the input stopped, not a known end of a construct.
    let last = closedAfter.slice(0, -1).lastIndexOf(true);
    if (last < 0) last = lines.length - 1;
    this.#settled.push(...shown(lines.slice(0, last + 1), this.#width));
    this.#lines = this.#lines.slice(last + 1);
    this.#shownLines = undefined;
  }

  #highlight(lines: readonly string[]): Highlighted {
    return highlighted(lines.join("\n"), this.#opener.language, this.#color);
  }

  /** The lines that will not change, each returned once. */
  take(): Line[] {
    const lines = this.#settled;
    this.#settled = [];
    return lines;
  }

  /**
   * The lines not yet settled, then `partial` (a line still arriving) in plain text: it is
   * highlighted once it is whole, so a delta costs no highlighting.
   */
  live(partial = ""): Line[] {
    this.#shownLines ??= this.#lines.length === 0
      ? []
      : shown(this.#highlight(this.#lines).lines, this.#width);
    if (partial === "") return this.#shownLines;
    return [
      ...this.#shownLines,
      ...shown([[{ text: this.#content(partial), style: "" }]], this.#width),
    ];
  }

  /** Everything not yet taken: the block has ended (closed, or the answer ended). */
  end(): Line[] {
    const rest = this.live();
    this.#lines = [];
    this.#shownLines = undefined;
    return [...this.take(), ...rest];
  }
}
