/**
 * The input box's whole state, pure: the text being edited with its long pastes, a walk
 * through the history with ↑/↓ (keeping the draft being typed), and a Ctrl-R search. Each
 * change is a function from one state to the next; `input_keys.ts` maps keys onto them.
 *
 * @module
 */
import { searchHistory } from "./history.ts";
import { deleteRange, type EditorState, editorWith, EMPTY_EDITOR, insert } from "./line_editor.ts";
import {
  blocksIn,
  markerFor,
  needsMarker,
  normaliseLineEnds,
  type PastedBlock,
  settleOutsideMarkers,
  widenOverMarkers,
} from "./paste.ts";

/** What the box holds: the text with the cursor, and the long pastes its markers stand for. */
export interface Draft {
  readonly editor: EditorState;
  readonly pastes: readonly PastedBlock[];
}

/** A Ctrl-R search in progress. */
export interface HistorySearch {
  readonly query: string;
  /** The index of the entry found; undefined while nothing matches. */
  readonly match: number | undefined;
  /** True when the last step found nothing (the previous match, if any, stays shown). */
  readonly failed: boolean;
  /** What the box held when the search began, for Esc. */
  readonly before: Draft;
}

/** Everything the input box knows. */
export interface InputState extends Draft {
  /** While walking the history: the entry shown and the draft to come back to. */
  readonly recall: { readonly index: number; readonly draft: Draft } | undefined;
  readonly search: HistorySearch | undefined;
  /** True when Esc closed the command list; typing opens it again. */
  readonly completionClosed: boolean;
}

/** An empty box. */
export const EMPTY_INPUT: InputState = {
  editor: EMPTY_EDITOR,
  pastes: [],
  recall: undefined,
  search: undefined,
  completionClosed: false,
};

/** True when the box holds nothing at all. */
export function isEmpty(state: InputState): boolean {
  return state.editor.text === "" && state.search === undefined;
}

/** `state` with a new text and cursor; pastes whose marker is gone are dropped. */
function withEditor(state: InputState, editor: EditorState): InputState {
  const textChanged = editor.text !== state.editor.text;
  return {
    ...state,
    editor,
    pastes: textChanged ? blocksIn(editor.text, state.pastes) : state.pastes,
    completionClosed: textChanged ? false : state.completionClosed,
  };
}

/** Text typed at the cursor. */
export function typeText(state: InputState, text: string): InputState {
  return withEditor(state, insert(state.editor, text));
}

/** A paste: whole, line ends made `\n`; a long one as a marker standing for all of it. */
export function pasteText(state: InputState, raw: string): InputState {
  const text = normaliseLineEnds(raw);
  if (text === "") return state;
  if (!needsMarker(text)) return typeText(state, text);
  const marker = markerFor(text, state.pastes, state.editor.text);
  const pastes = [...state.pastes, { marker, text }];
  return { ...state, editor: insert(state.editor, marker), pastes, completionClosed: false };
}

/** The cursor moved by `move`, stepping over a marker as if it were one character. */
export function moveCursor(
  state: InputState,
  move: (editor: EditorState) => EditorState,
): InputState {
  const moved = move(state.editor);
  const forward = moved.cursor > state.editor.cursor;
  const cursor = settleOutsideMarkers(moved.text, state.pastes, moved.cursor, forward);
  return withEditor(state, { text: moved.text, cursor });
}

/** A deletion by `remove`, widened so that a marker it touches goes whole. */
export function deleteWith(
  state: InputState,
  remove: (editor: EditorState) => EditorState,
): InputState {
  const before = state.editor;
  const after = remove(before);
  const removed = before.text.length - after.text.length;
  if (removed <= 0) return withEditor(state, after);
  const [from, to] = widenOverMarkers(
    before.text,
    state.pastes,
    after.cursor,
    after.cursor + removed,
  );
  return withEditor(state, deleteRange(before, from, to));
}

const draftOf = (state: InputState): Draft => ({ editor: state.editor, pastes: state.pastes });

const showing = (state: InputState, draft: Draft): InputState => ({
  ...state,
  editor: draft.editor,
  pastes: draft.pastes,
  completionClosed: false,
});

/** ↑ on the first line: the next older history entry (the draft is kept to come back to). */
export function recallOlder(state: InputState, entries: readonly string[]): InputState {
  const index = (state.recall?.index ?? entries.length) - 1;
  if (index < 0 || index >= entries.length) return state;
  const draft = state.recall?.draft ?? draftOf(state);
  return {
    ...showing(state, { editor: editorWith(entries[index]!), pastes: [] }),
    recall: { index, draft },
  };
}

/** ↓ on the last line: the next newer entry, and past the newest the draft again. */
export function recallNewer(state: InputState, entries: readonly string[]): InputState {
  if (state.recall === undefined) return state;
  const index = state.recall.index + 1;
  if (index >= entries.length) return { ...showing(state, state.recall.draft), recall: undefined };
  const shown = showing(state, { editor: editorWith(entries[index]!), pastes: [] });
  return { ...shown, recall: { index, draft: state.recall.draft } };
}

/** Ctrl-R: a search begins, from the newest entry. */
export function startSearch(state: InputState): InputState {
  const search = { query: "", match: undefined, failed: false, before: draftOf(state) };
  return { ...state, search };
}

/** The query changed: the newest entry holding it, at or before the current match. */
export function searchFor(
  state: InputState,
  query: string,
  entries: readonly string[],
  from: number = entries.length,
): InputState {
  const search = state.search;
  if (!search) return state;
  const match = searchHistory(entries, query, from);
  if (match === undefined) return { ...state, search: { ...search, query, failed: query !== "" } };
  return { ...state, search: { ...search, query, match, failed: false } };
}

/** Ctrl-R again: the next older entry holding the query, skipping ones equal to the match. */
export function searchOlder(state: InputState, entries: readonly string[]): InputState {
  const search = state.search;
  if (!search || search.match === undefined) return state;
  let before = search.match;
  for (;;) {
    const match = searchHistory(entries, search.query, before);
    if (match === undefined) return { ...state, search: { ...search, failed: true } };
    if (entries[match] !== entries[search.match]) {
      return { ...state, search: { ...search, match, failed: false } };
    }
    before = match;
  }
}

/** Esc in a search: the box as it was before the search. */
export function cancelSearch(state: InputState): InputState {
  if (!state.search) return state;
  return { ...showing(state, state.search.before), search: undefined };
}

/** Enter (or a move) in a search: the match put in the box to edit or send. */
export function acceptSearch(state: InputState, entries: readonly string[]): InputState {
  const search = state.search;
  if (!search) return state;
  if (search.match === undefined) return cancelSearch(state);
  const editor = editorWith(entries[search.match] ?? "");
  return { ...showing(state, { editor, pastes: [] }), search: undefined, recall: undefined };
}
