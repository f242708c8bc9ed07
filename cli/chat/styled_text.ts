/**
 * Styled terminal text for the chat's renderers: runs of text that each carry one style, how
 * many columns they take, word wrapping and hard cutting to a width, and the final line with
 * hel's own SGR codes (none at all without colour). The text in a run is expected to be
 * neutralised already (no control characters but the newlines this module splits on); the only
 * escape sequences in a line are the ones {@link encodeLine} writes from the styles.
 *
 * @module
 */
import stringWidth from "string-width";

/** A run of text in one style. */
export interface Span {
  readonly text: string;
  /** SGR parameters without the escape, e.g. `"1;35"`; empty for the terminal's default. */
  readonly style: string;
}

/** One line on the screen. */
export type Line = Span[];

/** `outer` with `inner` applied after it (later SGR codes win, so the inner style shows). */
export function withStyle(outer: string, inner: string): string {
  if (outer === "") return inner;
  return inner === "" ? outer : `${outer};${inner}`;
}

/**
 * Text whose every character takes one column and stands alone: printable ASCII, Latin
 * letters, punctuation, arrows, maths, box drawing and shapes (string-width agrees for each),
 * measured without string-width, which costs microseconds a call.
 */
const ONE_COLUMN_EACH =
  /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u024f\u2010-\u2027\u2030-\u205e\u2190-\u22ff\u2500-\u25fc\u25ff]*$/;

/** Columns `text` takes on a terminal: East Asian wide characters and emoji take two. */
export function columns(text: string): number {
  return ONE_COLUMN_EACH.test(text) ? text.length : stringWidth(text);
}

/** Columns a line takes. */
export function lineColumns(line: readonly Span[]): number {
  let total = 0;
  for (const span of line) total += columns(span.text);
  return total;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The characters a person sees as one each (an emoji with its modifiers is one). */
function clusters(text: string): string[] {
  if (ONE_COLUMN_EACH.test(text)) return text.split("");
  return Array.from(graphemes.segment(text), (part) => part.segment);
}

/**
 * `spans` cut into lines of at most `width` columns wherever they fall (for code and words
 * longer than a line), the first line only `firstRoom` columns. A character wider than the
 * whole width still gets a line of its own.
 */
export function cutToWidth(spans: readonly Span[], width: number, firstRoom = width): Line[] {
  const lines: Line[] = [];
  let line: Line = [];
  let used = width - firstRoom;
  for (const span of spans) {
    let run = "";
    for (const cluster of clusters(span.text)) {
      const wide = columns(cluster);
      if (used + wide > width && used > 0) {
        if (run !== "") line.push({ text: run, style: span.style });
        lines.push(line);
        line = [];
        run = "";
        used = 0;
      }
      run += cluster;
      used += wide;
    }
    if (run !== "") line.push({ text: run, style: span.style });
  }
  lines.push(line);
  return lines;
}

/**
 * `spans` word-wrapped to `width` columns: runs of spaces and tabs are break points shown as
 * one space (none at a line's start or end), `\n` ends a line, and a word wider than `width`
 * is cut. A word may span several runs (`**bold**text` is one word in two styles).
 */
export function wrapSpans(spans: readonly Span[], width: number): Line[] {
  const lines: Line[] = [];
  let line: Line = [];
  let used = 0;
  let word: Span[] = [];
  let wordWidth = 0;
  let space: Span | undefined;

  const endLine = () => {
    lines.push(line);
    line = [];
    used = 0;
  };
  const placeWord = () => {
    if (word.length === 0) return;
    // A word longer than a line is cut anyway, so it starts where the line is (CJK text has
    // no spaces to break at); a shorter one moves whole to the next line if it must.
    const cut = wordWidth > width;
    if (used > 0 && (cut ? used + 2 > width : used + 1 + wordWidth > width)) endLine();
    if (used > 0 && space) {
      line.push(space);
      used += 1;
    }
    if (cut) {
      const pieces = cutToWidth(word, width, width - used);
      line.push(...pieces[0]!);
      for (const piece of pieces.slice(1)) {
        lines.push(line);
        line = piece;
      }
      used = lineColumns(line);
    } else {
      line.push(...word);
      used += wordWidth;
    }
    word = [];
    wordWidth = 0;
    space = undefined;
  };

  for (const span of spans) {
    for (const part of span.text.split(/([ \t]+|\n)/)) {
      if (part === "") continue;
      if (part === "\n") {
        placeWord();
        endLine();
        space = undefined;
      } else if (part[0] === " " || part[0] === "\t") {
        placeWord();
        if (used > 0) space = { text: " ", style: span.style };
      } else {
        word.push({ text: part, style: span.style });
        wordWidth += columns(part);
      }
    }
  }
  placeWord();
  if (line.length > 0 || lines.length === 0) lines.push(line);
  return lines;
}

/** `line` with spaces added on the right up to `width` columns. */
export function padLine(line: readonly Span[], width: number): Line {
  const missing = width - lineColumns(line);
  return missing > 0 ? [...line, { text: " ".repeat(missing), style: "" }] : [...line];
}

/** Tabs as spaces up to the next stop every `every` columns, measured from the line's start. */
export function expandTabs(text: string, every = 4): string {
  if (!text.includes("\t")) return text;
  let out = "";
  let column = 0;
  for (const cluster of clusters(text)) {
    if (cluster === "\t") {
      const pad = every - (column % every);
      out += " ".repeat(pad);
      column += pad;
    } else {
      out += cluster;
      column += columns(cluster);
    }
  }
  return out;
}

/**
 * The line as terminal text: each styled run between its SGR code and a reset, neighbours of
 * one style merged. Without `color` the plain text, with no escape sequence at all.
 */
export function encodeLine(line: readonly Span[], color: boolean): string {
  if (!color) return line.map((span) => span.text).join("");
  let out = "";
  let style = "";
  let run = "";
  const flush = () => {
    if (run !== "") out += style === "" ? run : `\x1b[${style}m${run}\x1b[0m`;
    run = "";
  };
  for (const span of line) {
    if (span.text === "") continue;
    if (span.style !== style) {
      flush();
      style = span.style;
    }
    run += span.text;
  }
  flush();
  return out;
}
