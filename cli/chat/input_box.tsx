/**
 * The chat's input box: a line editor with history, Ctrl-R search, multi-line input, whole
 * pastes and slash-command completion, on Ink's `useInput` and `usePaste` (bracketed paste, so
 * a pasted block arrives as one piece). Typing works while an answer streams; `busy` only
 * changes the hint. The app must render with `exitOnCtrlC: false` so Ctrl-C reaches the box.
 *
 * Shift+Enter: most terminals send it as a plain Enter. Under the kitty keyboard protocol
 * (Ink's `kittyKeyboard: {mode: "auto"}` render option) it arrives as `CSI 13;2u`, which Ink
 * reports as `key.return` with `key.shift`; terminals set up to send ESC CR for it (as for
 * Alt+Enter) give `key.return` with `key.meta`. Both break the line, as do Ctrl-J and `\`
 * before Enter on every terminal.
 *
 * @module
 */
import { useInput, usePaste } from "ink";
import { useRef, useState } from "react";
import { errorMessage } from "../../core/errors.ts";
import { neutralise } from "../../core/neutralise.ts";
import {
  argumentBeingTyped,
  type CommandSource,
  completedArgument,
  currentCommands,
} from "./command_completion.ts";
import type { PromptHistory } from "./history.ts";
import { applyKey, applyPaste, type KeyContext } from "./input_keys.ts";
import { EMPTY_INPUT, type InputState } from "./input_state.ts";
import { editorWith } from "./line_editor.ts";
import { InputView } from "./input_view.tsx";

/** What the chat gives the input box and hears back from it. */
export interface InputBoxProps {
  history: PromptHistory;
  /** The commands to list and complete; a function is asked at each key (they may change). */
  commands: CommandSource;
  /** True while an answer streams: Enter still sends, the hint says it is queued. */
  busy: boolean;
  color: boolean;
  width: number;
  /** Enter: the whole text, long pastes in full. It is already in the history. */
  onSubmit(text: string): void;
  /** Esc with nothing of the box's own (a search, the command list) to close. */
  onEscape(): void;
  /** Ctrl-C; the box has already cleared itself. */
  onCtrlC(hadText: boolean): void;
  /** Ctrl-D on an empty box. */
  onExit(): void;
  /** False while something else (a permission question, a picker) owns the keys. */
  isActive?: boolean;
}

/** A failed history write, as one line under the box. */
function historyNotice(error: unknown): string {
  return neutralise(`history not saved: ${errorMessage(error)}`).replaceAll("\n", " ");
}

/** The input box (see the module's description). */
export function InputBox(props: InputBoxProps) {
  const { history, isActive = true } = props;
  const [state, setState] = useState<InputState>(EMPTY_INPUT);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  // Keys can come faster than React renders: each one must act on the state the last one
  // made, so every change goes through `update`, which keeps this current.
  const latest = useRef(state);
  const completionShown = useRef(false);

  const commands = currentCommands(props.commands);
  const context = (): KeyContext => ({
    history: history.entries(),
    commands: currentCommands(props.commands),
  });
  const update = (next: InputState) => {
    latest.current = next;
    setState(next);
  };

  useInput((input, key) => {
    const outcome = applyKey(latest.current, input, key, context());
    // Completion values listed under the box go once the text changes.
    if (completionShown.current && outcome.state.editor.text !== latest.current.editor.text) {
      completionShown.current = false;
      setNotice(undefined);
    }
    if (outcome.state !== latest.current) update(outcome.state);
    const effect = outcome.effect;
    if (!effect) return;
    if (effect.kind === "complete") {
      void completeArgument(effect.text);
    } else if (effect.kind === "submit") {
      setNotice(undefined);
      history.add(effect.text).catch((error) => setNotice(historyNotice(error)));
      props.onSubmit(effect.text);
    } else if (effect.kind === "escape") props.onEscape();
    else if (effect.kind === "ctrl-c") props.onCtrlC(effect.hadText);
    else props.onExit();
  }, { isActive });

  /**
   * Tab in a command's argument: the plugin is asked (an MCP server, at most a few seconds);
   * its answer applies only if the box still holds what was completed. Several values are
   * listed under the box; none says so.
   */
  const completeArgument = async (text: string) => {
    const typed = argumentBeingTyped(text, context().commands);
    if (!typed) return;
    const completion = await typed.command.complete!(typed.argument, AbortSignal.timeout(10_000))
      .catch(() => ({ start: typed.argument.length, values: [] }));
    if (latest.current.editor.text !== text) return;
    const next = completedArgument(typed.name, typed.argument, completion);
    if (next !== text) update({ ...latest.current, editor: editorWith(next) });
    const shown = completion.values.length === 1
      ? undefined
      : completion.values.length === 0
      ? "no completions"
      : completion.values.slice(0, 20).join("  ") +
        (completion.values.length > 20 ? `  … ${completion.values.length - 20} more` : "");
    // The values are a server's text.
    completionShown.current = shown !== undefined;
    setNotice(shown === undefined ? undefined : neutralise(shown).replaceAll("\n", " "));
  };

  usePaste((text) => update(applyPaste(latest.current, text, context())), { isActive });

  return (
    <InputView
      state={state}
      commands={commands}
      history={history.entries()}
      busy={props.busy}
      color={props.color}
      width={props.width}
      notice={notice}
    />
  );
}
