/**
 * Pasted text in the input box. A paste arrives whole (bracketed paste), its line ends made
 * `\n`. A short one is typed into the box as it is; a long one stands in the box as a marker
 * such as `[pasted 120 lines]`, which edits treat as one character and which the submitted
 * text replaces with everything that was pasted.
 *
 * @module
 */
import { codePointLength, groupDigits } from "../../core/text.ts";

/** A long paste and the marker that stands for it in the box. */
export interface PastedBlock {
  readonly marker: string;
  readonly text: string;
}

/** Pastes with more lines than this are shown as a marker. */
export const PASTE_MARKER_LINES = 5;
/** Pastes with more characters than this are shown as a marker. */
export const PASTE_MARKER_CHARACTERS = 800;

/** `text` with every line end (`\r\n`, a lone `\r`) made `\n`. */
export function normaliseLineEnds(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** How many lines `text` shows (a final line end does not start another). */
export function lineCount(text: string): number {
  const breaks = text.split("\n").length - 1;
  return text.endsWith("\n") ? Math.max(1, breaks) : breaks + 1;
}

/** True when a paste is long enough to stand in the box as a marker. */
export function needsMarker(text: string): boolean {
  return lineCount(text) > PASTE_MARKER_LINES || codePointLength(text) > PASTE_MARKER_CHARACTERS;
}

/**
 * The marker for a paste of `text`, told apart by a number from the markers already in
 * `taken` and from text already in the box (`boxText`): `[pasted 120 lines]`, then
 * `[pasted 120 lines #2]`.
 */
export function markerFor(text: string, taken: readonly PastedBlock[], boxText = ""): string {
  const lines = lineCount(text);
  const size = lines === 1
    ? `${groupDigits(codePointLength(text))} characters`
    : `${groupDigits(lines)} lines`;
  const used = new Set(taken.map((block) => block.marker));
  let marker = `[pasted ${size}]`;
  const free = (candidate: string) => !used.has(candidate) && !boxText.includes(candidate);
  for (let number = 2; !free(marker); number++) marker = `[pasted ${size} #${number}]`;
  return marker;
}

/** Where a marker stands in the box's text. */
export interface MarkerSpan {
  readonly block: PastedBlock;
  readonly start: number;
  readonly end: number;
}

/** The markers still whole in `text`, in order (an edited marker no longer counts). */
export function markerSpans(text: string, blocks: readonly PastedBlock[]): MarkerSpan[] {
  const spans: MarkerSpan[] = [];
  for (const block of blocks) {
    const start = text.indexOf(block.marker);
    if (start !== -1) spans.push({ block, start, end: start + block.marker.length });
  }
  return spans.sort((a, b) => a.start - b.start);
}

/** The text to send: each marker replaced by the paste it stands for. */
export function expandMarkers(text: string, blocks: readonly PastedBlock[]): string {
  let expanded = "";
  let from = 0;
  for (const span of markerSpans(text, blocks)) {
    expanded += text.slice(from, span.start) + span.block.text;
    from = span.end;
  }
  return expanded + text.slice(from);
}

/** The blocks whose marker is still whole in `text`: a removed marker drops its paste. */
export function blocksIn(text: string, blocks: readonly PastedBlock[]): PastedBlock[] {
  return blocks.filter((block) => text.includes(block.marker));
}

/**
 * The range `[from, to)` widened to whole markers: an edit that touches a marker removes all
 * of it, never leaves a half that would send a stray piece of text.
 */
export function widenOverMarkers(
  text: string,
  blocks: readonly PastedBlock[],
  from: number,
  to: number,
): [number, number] {
  let [start, stop] = [from, to];
  for (const span of markerSpans(text, blocks)) {
    if (span.start < stop && span.end > start) {
      start = Math.min(start, span.start);
      stop = Math.max(stop, span.end);
    }
  }
  return [start, stop];
}

/**
 * Where a cursor moved to `cursor` settles: inside a marker it goes to the marker's edge in
 * the direction it moved (`forward`), so the next key acts on the marker as a whole.
 */
export function settleOutsideMarkers(
  text: string,
  blocks: readonly PastedBlock[],
  cursor: number,
  forward: boolean,
): number {
  for (const span of markerSpans(text, blocks)) {
    if (cursor > span.start && cursor < span.end) return forward ? span.end : span.start;
  }
  return cursor;
}
