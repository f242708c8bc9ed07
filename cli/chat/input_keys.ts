/**
 * What each key does in the input box, as a pure function from one state to the next (and
 * what the box must tell the chat: send, Esc, Ctrl-C, exit), so every key can be tested
 * without a terminal. Keys arrive as Ink's `useInput` reports them; pastes come separately,
 * whole, through {@link pasteText}.
 *
 * @module
 */
import type { Key } from "ink";
import {
  argumentBeingTyped,
  type CommandInfo,
  commandToSend,
  completeCommand,
  matchingCommands,
} from "./command_completion.ts";
import {
  deleteBack,
  deleteForward,
  deleteWordBack,
  deleteWordForward,
  editorWith,
  end,
  home,
  killToEnd,
  killToStart,
  left,
  lineDown,
  lineUp,
  onFirstLine,
  onLastLine,
  right,
  wordLeft,
  wordRight,
} from "./line_editor.ts";
import {
  acceptSearch,
  cancelSearch,
  deleteWith,
  EMPTY_INPUT,
  type InputState,
  isEmpty,
  moveCursor,
  pasteText,
  recallNewer,
  recallOlder,
  searchFor,
  searchOlder,
  startSearch,
  typeText,
} from "./input_state.ts";
import { expandMarkers } from "./paste.ts";

/** What the box reads besides the keys: the history to walk and the commands to complete. */
export interface KeyContext {
  readonly history: readonly string[];
  readonly commands: readonly CommandInfo[];
}

/** What a key asks of the chat beyond changing the box. */
export type InputEffect =
  | { readonly kind: "submit"; readonly text: string }
  /** Tab in a command's argument: complete `text` (see command_completion.ts). */
  | { readonly kind: "complete"; readonly text: string }
  | { readonly kind: "escape" }
  | { readonly kind: "ctrl-c"; readonly hadText: boolean }
  | { readonly kind: "exit" };

/** The box after a key, and what the key asks of the chat, if anything. */
export interface KeyOutcome {
  readonly state: InputState;
  readonly effect?: InputEffect;
}

const ctrl = (input: string, key: Key, letter: string) =>
  key.ctrl && !key.meta && input.toLowerCase() === letter;
const alt = (input: string, key: Key, letter: string) =>
  key.meta && !key.ctrl && input.toLowerCase() === letter;

/** True when the command list shows under the box. */
export function completionOpen(state: InputState, commands: readonly CommandInfo[]): boolean {
  return !state.completionClosed && state.search === undefined &&
    matchingCommands(state.editor.text, commands).length > 0;
}

/**
 * The box after `input` / `key` (as Ink's `useInput` reports them) and what the chat must do.
 * Enter sends (not a blank text); Shift+Enter, Alt+Enter, Ctrl-J and `\` before Enter break
 * the line; Ctrl-C clears; Ctrl-D on an empty box exits; Esc closes the command list or the
 * search before it reaches the chat.
 */
export function applyKey(
  state: InputState,
  input: string,
  key: Key,
  context: KeyContext,
): KeyOutcome {
  if (key.eventType === "release") return { state };
  if (ctrl(input, key, "c")) {
    return { state: EMPTY_INPUT, effect: { kind: "ctrl-c", hadText: !isEmpty(state) } };
  }
  if (state.search) return searchKey(state, input, key, context);
  return editKey(state, input, key, context);
}

/** Keys during a Ctrl-R search: they edit the query; others take the match and act on it. */
function searchKey(state: InputState, input: string, key: Key, context: KeyContext): KeyOutcome {
  const search = state.search!;
  const entries = context.history;
  if (key.escape || ctrl(input, key, "g")) return { state: cancelSearch(state) };
  if (ctrl(input, key, "r")) return { state: searchOlder(state, entries) };
  if (key.return) return { state: acceptSearch(state, entries) };
  if (key.backspace) {
    return { state: searchFor(state, [...search.query].slice(0, -1).join(""), entries) };
  }
  if (isTyped(input, key)) {
    const from = (search.match ?? entries.length - 1) + 1;
    const query = search.query + (input.split(/[\r\n]/)[0] ?? "");
    return { state: searchFor(state, query, entries, from) };
  }
  return editKey(acceptSearch(state, entries), input, key, context);
}

/** True for a key that types text (not a key with Ctrl or Alt, nor a special key). */
function isTyped(input: string, key: Key): boolean {
  return input !== "" && !key.ctrl && !key.meta && !key.return && !key.tab &&
    !key.backspace && !key.delete && !key.escape;
}

function editKey(state: InputState, input: string, key: Key, context: KeyContext): KeyOutcome {
  const keep = (next: InputState): KeyOutcome => ({ state: next });
  const editor = state.editor;
  if (key.escape) {
    if (completionOpen(state, context.commands)) return keep({ ...state, completionClosed: true });
    return { state, effect: { kind: "escape" } };
  }
  if (key.return) {
    if (key.shift || key.meta) return keep(typeText(state, "\n"));
    if (editor.text[editor.cursor - 1] === "\\") {
      return keep(typeText(deleteWith(state, deleteBack), "\n"));
    }
    return submit(state, context.commands);
  }
  // Ctrl-J: a line feed on a plain terminal, or the letter with Ctrl under kitty's protocol.
  if ((input === "\n" && !key.meta) || ctrl(input, key, "j")) return keep(typeText(state, "\n"));
  if (key.tab) {
    const completed = completeCommand(editor.text, context.commands);
    if (completed !== undefined && completionOpen(state, context.commands)) {
      return keep({ ...state, editor: editorWith(completed) });
    }
    // A command's argument completes by asking its plugin (a server), which takes a moment.
    if (argumentBeingTyped(editor.text, context.commands)) {
      return { state, effect: { kind: "complete", text: editor.text } };
    }
    return keep(state);
  }
  if (ctrl(input, key, "d")) {
    if (editor.text === "") return { state, effect: { kind: "exit" } };
    return keep(deleteWith(state, deleteForward));
  }
  if (ctrl(input, key, "r")) return keep(startSearch(state));
  if (key.upArrow || ctrl(input, key, "p")) {
    if (onFirstLine(editor)) return keep(recallOlder(state, context.history));
    return keep(moveCursor(state, lineUp));
  }
  if (key.downArrow || ctrl(input, key, "n")) {
    if (onLastLine(editor)) return keep(recallNewer(state, context.history));
    return keep(moveCursor(state, lineDown));
  }
  const edited = editWithKey(state, input, key);
  if (edited) return keep(edited);
  if (key.ctrl || key.meta || !isTyped(input, key)) return keep(state);
  // More than one character at once is a paste from a terminal without bracketed paste.
  return keep([...input].length > 1 ? pasteText(state, input) : typeText(state, input));
}

/** Moves and deletions; undefined when the key is neither. */
function editWithKey(state: InputState, input: string, key: Key): InputState | undefined {
  const byWord = key.ctrl || key.meta;
  if (key.leftArrow) return moveCursor(state, byWord ? wordLeft : left);
  if (key.rightArrow) return moveCursor(state, byWord ? wordRight : right);
  if (key.home || ctrl(input, key, "a")) return moveCursor(state, home);
  if (key.end || ctrl(input, key, "e")) return moveCursor(state, end);
  if (ctrl(input, key, "b")) return moveCursor(state, left);
  if (ctrl(input, key, "f")) return moveCursor(state, right);
  if (alt(input, key, "b")) return moveCursor(state, wordLeft);
  if (alt(input, key, "f")) return moveCursor(state, wordRight);
  if (key.backspace) return deleteWith(state, byWord ? deleteWordBack : deleteBack);
  if (key.delete) return deleteWith(state, key.meta ? deleteWordForward : deleteForward);
  if (ctrl(input, key, "h")) return deleteWith(state, deleteBack);
  if (ctrl(input, key, "w")) return deleteWith(state, deleteWordBack);
  if (alt(input, key, "d")) return deleteWith(state, deleteWordForward);
  if (ctrl(input, key, "k")) return deleteWith(state, killToEnd);
  if (ctrl(input, key, "u")) return deleteWith(state, killToStart);
  return undefined;
}

/** Enter: the whole text (pastes in full) sent, the box emptied; a blank text is not sent. */
function submit(state: InputState, commands: readonly CommandInfo[]): KeyOutcome {
  const text = expandMarkers(state.editor.text, state.pastes);
  if (text.trim() === "") return { state };
  return { state: EMPTY_INPUT, effect: { kind: "submit", text: commandToSend(text, commands) } };
}

/** A paste: whole into the box, or its first line into the query of a Ctrl-R search. */
export function applyPaste(state: InputState, text: string, context: KeyContext): InputState {
  const search = state.search;
  if (!search) return pasteText(state, text);
  const query = search.query + (text.split(/[\r\n]/)[0] ?? "");
  return searchFor(state, query, context.history, (search.match ?? context.history.length - 1) + 1);
}
