/**
 * The chat input's editing model, pure: a text and a cursor, and one function per edit a
 * person makes with the keys (moves by character, word and line, deletions, kills, newlines).
 * The cursor steps over whole characters as a person sees them (grapheme clusters), so an
 * emoji, a flag or a letter with its accent is never split in two.
 *
 * @module
 */

/** What the input box holds: its text and where the cursor is. */
export interface EditorState {
  /** The text typed so far; lines are separated by `\n`. */
  readonly text: string;
  /** An index into `text` (UTF-16 units), always on a character boundary. */
  readonly cursor: number;
}

/** An empty box. */
export const EMPTY_EDITOR: EditorState = { text: "", cursor: 0 };

/** A state holding `text` with the cursor at its end. */
export function editorWith(text: string): EditorState {
  return { text, cursor: text.length };
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * How far to look around the cursor for a character's edges: longer than any cluster a
 * person types, and it keeps each move constant in cost however long the text is.
 */
const CLUSTER_WINDOW = 64;

/** The boundary of the character before `index` (0 at the start). */
export function previousBoundary(text: string, index: number): number {
  if (index <= 0) return 0;
  const from = Math.max(0, index - CLUSTER_WINDOW);
  let last = from;
  for (const { index: at } of graphemes.segment(text.slice(from, index))) last = from + at;
  return last;
}

/** The boundary of the character after `index` (the text's length at the end). */
export function nextBoundary(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const window = text.slice(index, index + CLUSTER_WINDOW);
  const first = graphemes.segment(window)[Symbol.iterator]().next();
  return index + (first.done ? window.length : first.value.segment.length);
}

/** Letters, digits, marks and `_` make words; everything else separates them. */
const WORD_CHARACTER = /[\p{L}\p{N}\p{M}_]/u;

function isWordAt(text: string, index: number): boolean {
  const point = text.codePointAt(index);
  return point !== undefined && WORD_CHARACTER.test(String.fromCodePoint(point));
}

/** Where the word before `index` starts (past any separators in between). */
export function wordStartBefore(text: string, index: number): number {
  let at = index;
  while (at > 0 && !isWordAt(text, previousBoundary(text, at))) at = previousBoundary(text, at);
  while (at > 0 && isWordAt(text, previousBoundary(text, at))) at = previousBoundary(text, at);
  return at;
}

/** Where the word after `index` ends (past any separators in between). */
export function wordEndAfter(text: string, index: number): number {
  let at = index;
  while (at < text.length && !isWordAt(text, at)) at = nextBoundary(text, at);
  while (at < text.length && isWordAt(text, at)) at = nextBoundary(text, at);
  return at;
}

/** The start of the line `index` is on. */
export function lineStart(text: string, index: number): number {
  return text.lastIndexOf("\n", index - 1) + 1;
}

/** The end of the line `index` is on (before its `\n`, or the text's end). */
export function lineEnd(text: string, index: number): number {
  const newline = text.indexOf("\n", index);
  return newline === -1 ? text.length : newline;
}

/** True when the cursor is on the text's first line. */
export function onFirstLine(state: EditorState): boolean {
  return !state.text.slice(0, state.cursor).includes("\n");
}

/** True when the cursor is on the text's last line. */
export function onLastLine(state: EditorState): boolean {
  return !state.text.slice(state.cursor).includes("\n");
}

/** `state` with `piece` typed at the cursor, the cursor after it. */
export function insert(state: EditorState, piece: string): EditorState {
  const { text, cursor } = state;
  return {
    text: text.slice(0, cursor) + piece + text.slice(cursor),
    cursor: cursor + piece.length,
  };
}

/** A line break at the cursor. */
export function newline(state: EditorState): EditorState {
  return insert(state, "\n");
}

const moveTo = (state: EditorState, cursor: number): EditorState => ({ text: state.text, cursor });

/** The cursor one character left. */
export function left(state: EditorState): EditorState {
  return moveTo(state, previousBoundary(state.text, state.cursor));
}

/** The cursor one character right. */
export function right(state: EditorState): EditorState {
  return moveTo(state, nextBoundary(state.text, state.cursor));
}

/** The cursor to the start of the word before it. */
export function wordLeft(state: EditorState): EditorState {
  return moveTo(state, wordStartBefore(state.text, state.cursor));
}

/** The cursor to the end of the word after it. */
export function wordRight(state: EditorState): EditorState {
  return moveTo(state, wordEndAfter(state.text, state.cursor));
}

/** The cursor to the start of its line. */
export function home(state: EditorState): EditorState {
  return moveTo(state, lineStart(state.text, state.cursor));
}

/** The cursor to the end of its line. */
export function end(state: EditorState): EditorState {
  return moveTo(state, lineEnd(state.text, state.cursor));
}

/** How many characters lie between `from` and `to` on one line. */
function columnsBetween(text: string, from: number, to: number): number {
  let count = 0;
  for (const _ of graphemes.segment(text.slice(from, to))) count++;
  return count;
}

/** The index `columns` characters right of `start`, but not past `limit`. */
function advance(text: string, start: number, columns: number, limit: number): number {
  let at = start;
  for (let step = 0; step < columns && at < limit; step++) at = nextBoundary(text, at);
  return Math.min(at, limit);
}

/** The cursor one line up, at the same column or the line's end; unchanged on the first line. */
export function lineUp(state: EditorState): EditorState {
  const { text, cursor } = state;
  const start = lineStart(text, cursor);
  if (start === 0) return state;
  const column = columnsBetween(text, start, cursor);
  const above = lineStart(text, start - 1);
  return moveTo(state, advance(text, above, column, start - 1));
}

/** The cursor one line down, at the same column or the line's end; unchanged on the last line. */
export function lineDown(state: EditorState): EditorState {
  const { text, cursor } = state;
  const stop = lineEnd(text, cursor);
  if (stop === text.length) return state;
  const column = columnsBetween(text, lineStart(text, cursor), cursor);
  return moveTo(state, advance(text, stop + 1, column, lineEnd(text, stop + 1)));
}

/** `state` without the text between `from` and `to`, the cursor where it was cut. */
export function deleteRange(state: EditorState, from: number, to: number): EditorState {
  const [start, stop] = from <= to ? [from, to] : [to, from];
  return { text: state.text.slice(0, start) + state.text.slice(stop), cursor: start };
}

/** Backspace: the character before the cursor removed. */
export function deleteBack(state: EditorState): EditorState {
  return deleteRange(state, previousBoundary(state.text, state.cursor), state.cursor);
}

/** Delete: the character under the cursor removed. */
export function deleteForward(state: EditorState): EditorState {
  return deleteRange(state, state.cursor, nextBoundary(state.text, state.cursor));
}

/** Ctrl-W / Alt-Backspace: the word before the cursor removed, with what separates it. */
export function deleteWordBack(state: EditorState): EditorState {
  return deleteRange(state, wordStartBefore(state.text, state.cursor), state.cursor);
}

/** Alt-D: the word after the cursor removed. */
export function deleteWordForward(state: EditorState): EditorState {
  return deleteRange(state, state.cursor, wordEndAfter(state.text, state.cursor));
}

/**
 * Ctrl-K: the rest of the line removed; at a line's end the line break goes instead, joining
 * the next line, so repeated presses keep removing.
 */
export function killToEnd(state: EditorState): EditorState {
  const stop = lineEnd(state.text, state.cursor);
  if (stop === state.cursor) return deleteForward(state);
  return deleteRange(state, state.cursor, stop);
}

/**
 * Ctrl-U: the line before the cursor removed; at a line's start the line break before it goes
 * instead, joining it to the line above.
 */
export function killToStart(state: EditorState): EditorState {
  const start = lineStart(state.text, state.cursor);
  if (start === state.cursor) return deleteBack(state);
  return deleteRange(state, start, state.cursor);
}
