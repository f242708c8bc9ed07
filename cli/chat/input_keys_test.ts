import assert from "node:assert/strict";
import type { Key } from "ink";
import {
  applyKey,
  applyPaste,
  completionOpen,
  type KeyContext,
  type KeyOutcome,
} from "./input_keys.ts";
import { EMPTY_INPUT, type InputState } from "./input_state.ts";

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

const COMMANDS = [
  { name: "help", summary: "what hel can do" },
  { name: "model", summary: "show or change the model" },
  { name: "mcp", summary: "MCP servers" },
  { name: "resume", summary: "continue an earlier session" },
];

/** One step: a key name or text typed, as Ink reports it. */
type Step = string | { input?: string; key: Partial<Key> };

const ENTER: Step = { input: "\r", key: { return: true } };
const UP: Step = { key: { upArrow: true } };
const DOWN: Step = { key: { downArrow: true } };
const ESC: Step = { key: { escape: true } };
const BACKSPACE: Step = { key: { backspace: true } };
const ctrl = (letter: string): Step => ({ input: letter, key: { ctrl: true } });

interface Run {
  state: InputState;
  effects: KeyOutcome["effect"][];
}

/** Presses `steps` in order (a string types its characters one by one). */
function press(steps: Step[], history: string[] = [], start: InputState = EMPTY_INPUT): Run {
  const context: KeyContext = { history, commands: COMMANDS };
  const run: Run = { state: start, effects: [] };
  for (const step of steps) {
    const keys = typeof step === "string"
      ? [...step].map((input) => ({ input, key: NO_KEY }))
      : [{ input: step.input ?? "", key: { ...NO_KEY, ...step.key } }];
    for (const { input, key } of keys) {
      const outcome = applyKey(run.state, input, key, context);
      run.state = outcome.state;
      if (outcome.effect) run.effects.push(outcome.effect);
    }
  }
  return run;
}

const text = (run: Run) => run.state.editor.text;
const sent = (run: Run) =>
  run.effects.flatMap((effect) => effect?.kind === "submit" ? [effect.text] : []);

Deno.test("enter sends the text and empties the box; a blank text is not sent", () => {
  const run = press(["fix the bug", ENTER, "   ", ENTER]);
  assert.deepEqual(sent(run), ["fix the bug"]);
  assert.equal(text(run), "   ");
});

Deno.test("ctrl-j, shift+enter, alt+enter and a backslash before enter break the line", () => {
  const shiftEnter = { input: "\r", key: { return: true, shift: true } };
  const altEnter = { input: "\r", key: { return: true, meta: true } };
  const run = press([
    "one",
    { input: "\n", key: {} },
    "two",
    ctrl("j"),
    "three",
    shiftEnter,
    "four",
    altEnter,
    "five\\",
    ENTER,
    "six",
    ENTER,
  ]);
  assert.deepEqual(sent(run), ["one\ntwo\nthree\nfour\nfive\nsix"]);
});

Deno.test("arrow keys, word jumps and kills edit the line as a shell does", () => {
  const left = { key: { leftArrow: true } };
  const wordLeft = { key: { leftArrow: true, ctrl: true } };
  const run = press([
    "git comit -m",
    wordLeft,
    wordLeft,
    { key: { rightArrow: true } },
    { key: { rightArrow: true } },
    "m",
    ctrl("e"),
    " 'x'",
    ctrl("w"),
    left,
    ctrl("k"),
    "done",
    ctrl("a"),
    { input: "f", key: { meta: true } },
    ctrl("u"),
  ]);
  assert.equal(text(run), " commit -m done");
  assert.equal(run.state.editor.cursor, 0);
});

Deno.test("up recalls older prompts and down comes back to the draft being typed", () => {
  const history = ["first", "second"];
  let run = press(["draft", UP], history);
  assert.equal(text(run), "second");
  run = press([UP, UP], history, run.state);
  assert.equal(text(run), "first", "stops at the oldest");
  run = press([DOWN], history, run.state);
  assert.equal(text(run), "second");
  run = press([DOWN], history, run.state);
  assert.equal(text(run), "draft");
  assert.equal(run.state.editor.cursor, 5);
});

Deno.test("up and down move between lines before they walk the history", () => {
  const history = ["older"];
  let run = press(["line one", ctrl("j"), "two"], history);
  run = press([UP], history, run.state);
  assert.equal(text(run), "line one\ntwo", "the cursor went up a line");
  assert.equal(run.state.editor.cursor, 3);
  run = press([UP], history, run.state);
  assert.equal(text(run), "older");
});

Deno.test("ctrl-r finds the newest match, older ones on repeat, and enter takes it", () => {
  const history = ["npm test", "git status", "npm run build", "npm run build", "ls"];
  let run = press(["typed", ctrl("r"), "npm"], history);
  assert.equal(run.state.search?.match, 3);
  run = press([ctrl("r")], history, run.state);
  assert.equal(run.state.search?.match, 0, "the repeated entry is skipped");
  run = press([ctrl("r")], history, run.state);
  assert.equal(run.state.search?.failed, true);
  run = press([ENTER], history, run.state);
  assert.equal(text(run), "npm test");
  assert.equal(run.state.search, undefined);
  assert.deepEqual(sent(run), [], "enter in a search does not send");
});

Deno.test("esc in a search puts back what was typed; ctrl-r keys edit the query", () => {
  const history = ["npm test", "git status"];
  let run = press(["draft", ctrl("r"), "gix", BACKSPACE], history);
  assert.equal(run.state.search?.query, "gi");
  assert.equal(run.state.search?.match, 1);
  run = press([ESC], history, run.state);
  assert.equal(text(run), "draft");
  assert.deepEqual(run.effects, [], "esc closed the search, not the chat's request");
});

Deno.test("a move in a search takes the match and moves in it", () => {
  const run = press([ctrl("r"), "status", { key: { home: true } }, "x "], ["git status"]);
  assert.equal(text(run), "x git status");
});

Deno.test("esc with nothing of the box's own to close reaches the chat", () => {
  assert.deepEqual(press(["text", ESC]).effects, [{ kind: "escape" }]);
});

Deno.test("ctrl-c clears the box and says whether it had text", () => {
  const run = press(["some text", ctrl("c"), ctrl("c")]);
  assert.equal(text(run), "");
  assert.deepEqual(run.effects, [
    { kind: "ctrl-c", hadText: true },
    { kind: "ctrl-c", hadText: false },
  ]);
});

Deno.test("ctrl-d exits only on an empty box, else deletes under the cursor", () => {
  let run = press(["ab", { key: { leftArrow: true } }, ctrl("d")]);
  assert.equal(text(run), "a");
  assert.deepEqual(run.effects, []);
  run = press([ctrl("d")]);
  assert.deepEqual(run.effects, [{ kind: "exit" }]);
});

Deno.test("a slash opens the command list, tab completes and esc closes it", () => {
  let run = press(["/m"]);
  assert.equal(completionOpen(run.state, COMMANDS), true);
  run = press([{ key: { tab: true } }], [], run.state);
  assert.equal(text(run), "/m", "model and mcp share only the m");
  run = press(["o", { key: { tab: true } }], [], run.state);
  assert.equal(text(run), "/model ");
  assert.equal(completionOpen(run.state, COMMANDS), false);
  run = press(["/he", ESC]);
  assert.equal(completionOpen(run.state, COMMANDS), false);
  assert.deepEqual(run.effects, [], "esc only closed the list");
  run = press(["l"], [], run.state);
  assert.equal(completionOpen(run.state, COMMANDS), true, "typing opens it again");
});

Deno.test("enter sends a command typed in part as the one it can only be", () => {
  assert.deepEqual(sent(press(["/res", ENTER])), ["/resume"]);
  assert.deepEqual(sent(press(["/m", ENTER])), ["/m"]);
  assert.deepEqual(sent(press(["/model gpt", ENTER])), ["/model gpt"]);
});

Deno.test("a paste arrives whole, even without a final newline, and enter sends it", () => {
  const context = { history: [], commands: COMMANDS };
  const pasted = applyPaste(EMPTY_INPUT, "line one\r\nline two\rline three", context);
  assert.equal(pasted.editor.text, "line one\nline two\nline three");
  assert.deepEqual(sent(press([ENTER], [], pasted)), ["line one\nline two\nline three"]);
});

Deno.test("a long paste shows as a marker and the sent text holds all of it", () => {
  const context = { history: [], commands: COMMANDS };
  const lines = Array.from({ length: 120 }, (_, i) => `row ${i}`).join("\n");
  let state = applyPaste(press(["see: "]).state, lines, context);
  assert.equal(state.editor.text, "see: [pasted 120 lines]");
  state = applyPaste(state, lines, context);
  assert.equal(state.editor.text, "see: [pasted 120 lines][pasted 120 lines #2]");
  const run = press([ENTER], [], state);
  assert.deepEqual(sent(run), [`see: ${lines}${lines}`]);
});

Deno.test("a marker is one character to the cursor and to backspace", () => {
  const context = { history: [], commands: COMMANDS };
  const long = "x".repeat(900);
  const state = applyPaste(press(["a"]).state, long, context);
  assert.equal(state.editor.text, "a[pasted 900 characters]");
  let run = press([{ key: { leftArrow: true } }], [], state);
  assert.equal(run.state.editor.cursor, 1, "one step left jumps over the marker");
  run = press([{ key: { rightArrow: true } }, BACKSPACE, "b", ENTER], [], run.state);
  assert.deepEqual(sent(run), ["ab"], "backspace took the whole marker and its paste");
  run = press([ctrl("w"), "c", ENTER], [], state);
  assert.deepEqual(sent(run), ["ac"], "a word deletion reaching into it takes it whole");
});

Deno.test("typed control keys without a meaning insert nothing", () => {
  const run = press(["a", ctrl("t"), { input: "x", key: { meta: true } }, {
    key: { pageUp: true },
  }]);
  assert.equal(text(run), "a");
});
