/**
 * The keys of the permission question, as a pure function of its state: y (yes, once), a (yes,
 * and don't ask again, when the call has a scope), u and p (yes, and save that as a rule in
 * the person's or the project's settings, when the chat can), n (no, then a line for what to
 * do instead), Esc (no); the digits, or ↑/↓ then Enter, choose too, and v shows or folds long
 * content. Only
 * a single typed key counts as an answer: pasted text that happens to start with "y" approves
 * nothing, and Enter chooses only once ↑ or ↓ has picked a choice.
 *
 * @module
 */

/** The person's answer, as the permission box reports it. */
export interface PermissionAnswer {
  approval: "approved" | "denied";
  /** What to do instead, sent to the model with the refusal (never empty). */
  instead?: string;
  /** "Don't ask again this session" for the call's scope. */
  always?: boolean;
  /** Also save the scope as an allow rule: in the person's settings, or the project's. */
  save?: "user" | "project";
}

/** Where the question is: choosing, or typing what to do instead after "n". */
export interface PermissionState {
  mode: "choose" | "instead";
  /**
   * The highlighted choice, an index of {@link choicesOf}; -1 until ↑ or ↓ is pressed, so an
   * Enter meant for a message being typed when the question came up answers nothing.
   */
  selected: number;
  /** Long content shown whole ("v"). */
  expanded: boolean;
  /** The text typed after "n". */
  instead: string;
}

/** The keys of a key press this function reads (a subset of Ink's `Key`). */
export interface KeyPress {
  upArrow?: boolean;
  downArrow?: boolean;
  return?: boolean;
  escape?: boolean;
  ctrl?: boolean;
  meta?: boolean;
  tab?: boolean;
  backspace?: boolean;
  delete?: boolean;
}

/**
 * A choice of the question; `always` is offered only when the call has a scope, `user` and
 * `project` (save it as a rule) only when the chat can save rules too.
 */
export type Choice = "once" | "always" | "user" | "project" | "no";

/** What the question offers besides yes and no. */
export interface Offers {
  /** The call has a scope: "don't ask again" can cover it. */
  always: boolean;
  /** The scope can be saved as a rule in the settings files. */
  save: boolean;
}

/** The choices in the order they are shown. */
export function choicesOf(offers: Offers): Choice[] {
  if (!offers.always) return ["once", "no"];
  return offers.save ? ["once", "always", "user", "project", "no"] : ["once", "always", "no"];
}

/** The state a question starts in. */
export const INITIAL_PERMISSION_STATE: PermissionState = {
  mode: "choose",
  selected: -1,
  expanded: false,
  instead: "",
};

/** A key's effect: the next state, and the answer when the key gave one. */
export interface KeyOutcome {
  state: PermissionState;
  answer?: PermissionAnswer;
}

const PLAIN_NO: PermissionAnswer = { approval: "denied" };

function choose(state: PermissionState, choice: Choice): KeyOutcome {
  if (choice === "once") return { state, answer: { approval: "approved" } };
  if (choice === "always") return { state, answer: { approval: "approved", always: true } };
  if (choice === "user" || choice === "project") {
    return { state, answer: { approval: "approved", always: true, save: choice } };
  }
  return { state: { ...state, mode: "instead" } };
}

function keyOfChoice(input: string, choices: readonly Choice[]): Choice | undefined {
  const byLetter: Record<string, Choice> = {
    y: "once",
    a: "always",
    u: "user",
    p: "project",
    n: "no",
  };
  const choice = byLetter[input.toLowerCase()] ?? choices[Number(input) - 1];
  return choice !== undefined && choices.includes(choice) ? choice : undefined;
}

/** Typed or pasted text for the one-line field: controls dropped, line breaks as spaces. */
function typedText(input: string): string {
  // deno-lint-ignore no-control-regex
  return input.replace(/\r\n|[\r\n\t]/g, " ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
}

function insteadKey(state: PermissionState, input: string, key: KeyPress): KeyOutcome {
  if (key.escape) return { state: { ...state, mode: "choose" } };
  if (key.return) {
    const instead = state.instead.trim();
    return { state, answer: instead === "" ? PLAIN_NO : { approval: "denied", instead } };
  }
  if (key.backspace || key.delete) {
    return { state: { ...state, instead: [...state.instead].slice(0, -1).join("") } };
  }
  if (key.ctrl && input === "u") return { state: { ...state, instead: "" } };
  if (key.ctrl && input === "w") {
    return { state: { ...state, instead: state.instead.replace(/\S*\s*$/, "") } };
  }
  if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow) return { state };
  return { state: { ...state, instead: state.instead + typedText(input) } };
}

/** What a key does to the question, given what it `offers`. Ctrl-C is a plain no, like Esc. */
export function permissionKey(
  state: PermissionState,
  input: string,
  key: KeyPress,
  offers: Offers,
): KeyOutcome {
  if (key.ctrl && input === "c") return { state, answer: PLAIN_NO };
  if (state.mode === "instead") return insteadKey(state, input, key);
  const choices = choicesOf(offers);
  if (key.escape) return { state, answer: PLAIN_NO };
  if (key.upArrow || key.downArrow) {
    const count = choices.length;
    const from = state.selected < 0 ? (key.upArrow ? 0 : -1) : state.selected;
    const selected = (from + (key.upArrow ? -1 : 1) + count) % count;
    return { state: { ...state, selected } };
  }
  if (key.return) {
    const choice = choices[state.selected];
    return choice === undefined ? { state } : choose(state, choice);
  }
  if (key.ctrl || key.meta || input.length !== 1) return { state };
  if (input === "v" || input === "V") return { state: { ...state, expanded: !state.expanded } };
  const choice = keyOfChoice(input, choices);
  return choice === undefined ? { state } : choose(state, choice);
}
