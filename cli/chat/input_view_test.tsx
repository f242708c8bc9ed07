import assert from "node:assert/strict";
import chalk from "chalk"; // the chalk Ink draws with, to turn on its styles here
import { renderToString } from "ink";
import { applyPaste } from "./input_keys.ts";
import { EMPTY_INPUT, type InputState, startSearch } from "./input_state.ts";
import { editorWith } from "./line_editor.ts";
import { BUSY_HINT, IDLE_HINT, InputView, type InputViewProps } from "./input_view.tsx";

const COMMANDS = [
  { name: "help", summary: "what hel can do" },
  { name: "model", summary: "show or change the model" },
  { name: "mcp", summary: "MCP servers and their state" },
];

const INVERSE = "\x1b[7m";
const INVERSE_OFF = "\x1b[27m";

/** The box drawn for `state`, with styles as SGR sequences. */
function draw(state: InputState, props: Partial<InputViewProps> = {}): string {
  const level = chalk.level;
  chalk.level = 1;
  try {
    return renderToString(
      <InputView
        state={state}
        commands={COMMANDS}
        history={[]}
        busy={false}
        color={false}
        width={50}
        {...props}
      />,
      { columns: 60 },
    );
  } finally {
    chalk.level = level;
  }
}

/** What a person reads: the drawing without its styles. */
/** An SGR sequence: the only escape the box may write. */
// deno-lint-ignore no-control-regex
const STYLE = /\x1b\[\d+m/g;
const plain = (drawn: string) => drawn.replace(STYLE, "");
const withText = (text: string, cursor = text.length): InputState => ({
  ...EMPTY_INPUT,
  editor: { text, cursor },
});

Deno.test("an empty box shows the prompt, the cursor and the hint", () => {
  const drawn = draw(EMPTY_INPUT, { width: 70 });
  assert.ok(drawn.includes(`│ > ${INVERSE} ${INVERSE_OFF}`), drawn);
  assert.ok(plain(drawn).includes(IDLE_HINT));
  assert.ok(plain(drawn).startsWith("╭"));
});

Deno.test("the cursor is the character under it in inverse video, emoji whole", () => {
  assert.ok(draw(withText("hello", 1)).includes(`h${INVERSE}e${INVERSE_OFF}llo`));
  assert.ok(draw(withText("a😀b", 1)).includes(`a${INVERSE}😀${INVERSE_OFF}b`));
});

Deno.test("a multi-line text shows every line under the first, indented past the prompt", () => {
  const lines = plain(draw(withText("first line\nsecond line\n\nfourth", 0))).split("\n");
  assert.equal(lines[1]?.trimEnd(), "│ > first line                                   │");
  assert.equal(lines[2]?.trimEnd(), "│   second line                                  │");
  assert.equal(lines[3]?.trimEnd(), "│                                                │");
  assert.equal(lines[4]?.trimEnd(), "│   fourth                                       │");
});

Deno.test("a long line wraps inside the box", () => {
  const drawn = plain(draw(withText("word ".repeat(20).trim())));
  const inside = drawn.split("\n").filter((line) => line.startsWith("│"));
  assert.ok(inside.length >= 3, drawn);
  assert.ok(inside.every((line) => line.length === 50), drawn);
});

Deno.test("a long paste shows as its marker, not its lines", () => {
  const lines = Array.from({ length: 120 }, (_, i) => `secret row ${i}`).join("\n");
  const state = applyPaste(withText("look: "), lines, { history: [], commands: COMMANDS });
  const drawn = plain(draw(state));
  assert.ok(drawn.includes("> look: [pasted 120 lines]"), drawn);
  assert.ok(!drawn.includes("secret row"));
});

Deno.test("control characters in the text are shown, never sent to the terminal", () => {
  const state = withText("a\x1b[31mred\x07\x1b]0;title\x07\tz");
  const drawn = draw(state, { width: 60 });
  assert.ok(plain(drawn).includes("a\\u001b[31mred\\u0007\\u001b]0;title\\u0007    z"), drawn);
  assert.ok(!plain(drawn).includes("\x1b"), "no escape but the box's own");
  assert.ok(!drawn.includes("\x07"));
});

Deno.test("a slash lists the matching commands with what they do", () => {
  const drawn = plain(draw(withText("/m")));
  assert.match(drawn, /\/model +show or change the model/);
  assert.match(drawn, /\/mcp +MCP servers and their state/);
  assert.ok(!drawn.includes("/help"));
  assert.ok(!drawn.includes(IDLE_HINT));
});

Deno.test("a closed command list is not drawn", () => {
  const drawn = plain(draw({ ...withText("/m"), completionClosed: true }));
  assert.ok(!drawn.includes("/model"));
});

Deno.test("a reverse search shows its query and the entry it found", () => {
  const history = ["npm test", "git status"];
  const searching = startSearch(withText("draft"));
  const found = { ...searching, search: { ...searching.search!, query: "npm", match: 0 } };
  assert.ok(plain(draw(found, { history })).includes("(reverse-i-search)'npm': npm test"));
  const failed = { ...found, search: { ...found.search, query: "npmx", failed: true } };
  assert.ok(
    plain(draw(failed, { history })).includes("(failed reverse-i-search)'npmx': npm test"),
  );
  assert.ok(!plain(draw(found, { history })).includes("draft"));
});

Deno.test("while an answer streams the hint says enter queues the message", () => {
  const drawn = plain(draw(withText("next question"), { busy: true }));
  assert.ok(drawn.includes(BUSY_HINT), drawn);
});

Deno.test("a notice about the box is shown under it", () => {
  const drawn = plain(draw(EMPTY_INPUT, { notice: "history not saved: a link was found" }));
  assert.ok(drawn.includes("history not saved: a link was found"));
});

Deno.test("without colour only the cursor is styled", () => {
  const drawn = draw({ ...editorWithState("/m"), completionClosed: false }, { color: false });
  const styles = drawn.match(STYLE) ?? [];
  assert.deepEqual([...new Set(styles)].sort(), [INVERSE_OFF, INVERSE].sort());
  const coloured = draw(editorWithState("/m"), { color: true });
  assert.ok(coloured.includes("\x1b[36m"), "with colour the commands are cyan");
});

function editorWithState(text: string): InputState {
  return { ...EMPTY_INPUT, editor: editorWith(text) };
}
