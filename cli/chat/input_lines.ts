/**
 * The input box's text cut into what is drawn: lines of pieces, each plain text, a paste's
 * marker or the cursor's cell. Text is shown safely: a control character that came in with a
 * paste is drawn as `\uXXXX` (see `core/neutralise.ts`) and a tab as spaces, so nothing in
 * the box can move the terminal's cursor or change how the rest reads.
 *
 * @module
 */
import { neutralise } from "../../core/neutralise.ts";
import { type EditorState, nextBoundary } from "./line_editor.ts";
import { markerSpans, type PastedBlock } from "./paste.ts";

/** One run of text drawn alike. */
export interface Piece {
  readonly text: string;
  readonly kind: "text" | "marker" | "cursor";
}

/** Tabs have no width a layout can count on; four spaces do. */
const TAB = "    ";

/** `text` as it may be drawn: controls made visible, tabs made spaces. */
export function shownText(text: string): string {
  return neutralise(text).replaceAll("\t", TAB);
}

/** Splits `pieces` at their line breaks into lines of pieces (the breaks themselves dropped). */
function intoLines(pieces: readonly Piece[]): Piece[][] {
  const lines: Piece[][] = [[]];
  for (const piece of pieces) {
    piece.text.split("\n").forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part !== "") lines.at(-1)!.push({ text: part, kind: piece.kind });
    });
  }
  return lines;
}

/**
 * The lines to draw for `editor` with its pastes' markers; with `showCursor`, the character
 * under the cursor is a piece of its own (a space at a line's end).
 */
export function inputLines(
  editor: EditorState,
  pastes: readonly PastedBlock[],
  showCursor = true,
): Piece[][] {
  const { text, cursor } = editor;
  const spans = markerSpans(text, pastes);
  const cuts = new Set([0, text.length, ...spans.flatMap((span) => [span.start, span.end])]);
  const cursorEnd = showCursor ? nextBoundary(text, cursor) : cursor;
  if (showCursor) [cursor, cursorEnd].forEach((at) => cuts.add(at));
  const points = [...cuts].sort((a, b) => a - b);
  const pieces: Piece[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [from, to] = [points[i]!, points[i + 1]!];
    const piece = text.slice(from, to);
    if (showCursor && from === cursor && piece !== "\n") {
      pieces.push({ text: shownText(piece), kind: "cursor" });
      continue;
    }
    if (showCursor && from === cursor) pieces.push({ text: " ", kind: "cursor" });
    const inMarker = spans.some((span) => from >= span.start && to <= span.end);
    pieces.push({ text: inMarker ? piece : shownText(piece), kind: inMarker ? "marker" : "text" });
  }
  if (showCursor && cursor === text.length) pieces.push({ text: " ", kind: "cursor" });
  return intoLines(pieces);
}
