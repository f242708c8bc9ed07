import assert from "node:assert/strict";
import {
  deleteBack,
  deleteForward,
  deleteWordBack,
  deleteWordForward,
  type EditorState,
  editorWith,
  end,
  home,
  insert,
  killToEnd,
  killToStart,
  left,
  lineDown,
  lineUp,
  newline,
  onFirstLine,
  onLastLine,
  right,
  wordLeft,
  wordRight,
} from "./line_editor.ts";

/** A state from `text` where `|` marks the cursor. */
function at(marked: string): EditorState {
  const cursor = marked.indexOf("|");
  return { text: marked.replace("|", ""), cursor };
}

/** The state written back with `|` at the cursor. */
function shown(state: EditorState): string {
  return state.text.slice(0, state.cursor) + "|" + state.text.slice(state.cursor);
}

Deno.test("typing inserts at the cursor and moves it past the text", () => {
  assert.equal(shown(insert(at("hel|lo"), "XY")), "helXY|lo");
  assert.equal(shown(insert(editorWith(""), "a")), "a|");
});

Deno.test("left and right step over a whole emoji, flag or accented letter", () => {
  for (const character of ["😀", "👩‍👩‍👧", "🇫🇷", "e\u0301"]) {
    const state = at(`a${character}|b`);
    assert.equal(shown(left(state)), `a|${character}b`, character);
    assert.equal(shown(right(left(state))), `a${character}|b`, character);
    assert.equal(shown(deleteBack(state)), "a|b", character);
    assert.equal(shown(deleteForward(left(state))), "a|b", character);
  }
});

Deno.test("moves stop at the ends of the text", () => {
  assert.equal(shown(left(at("|ab"))), "|ab");
  assert.equal(shown(right(at("ab|"))), "ab|");
  assert.equal(shown(deleteBack(at("|ab"))), "|ab");
  assert.equal(shown(deleteForward(at("ab|"))), "ab|");
});

Deno.test("word jumps skip separators and land on word edges", () => {
  assert.equal(shown(wordLeft(at("run the tests|"))), "run the |tests");
  assert.equal(shown(wordLeft(at("run the |tests"))), "run |the tests");
  assert.equal(shown(wordLeft(at("src/chat.ts  |"))), "src/chat.|ts  ");
  assert.equal(shown(wordRight(at("|run the tests"))), "run| the tests");
  assert.equal(shown(wordRight(at("run| the tests"))), "run the| tests");
  assert.equal(shown(wordRight(at("héllo wörld|"))), "héllo wörld|");
  assert.equal(shown(wordLeft(at("héllo wörld|"))), "héllo |wörld");
});

Deno.test("delete word removes the word before the cursor with the space after it", () => {
  assert.equal(shown(deleteWordBack(at("git commit -m |"))), "git commit -|");
  assert.equal(shown(deleteWordBack(at("git commit|"))), "git |");
  assert.equal(shown(deleteWordBack(at("|git"))), "|git");
  assert.equal(shown(deleteWordForward(at("git |commit -m"))), "git | -m");
});

Deno.test("home and end go to the ends of the current line, not of the text", () => {
  const state = at("first line\nsec|ond line\nthird");
  assert.equal(shown(home(state)), "first line\n|second line\nthird");
  assert.equal(shown(end(state)), "first line\nsecond line|\nthird");
  assert.equal(shown(home(at("one|"))), "|one");
  assert.equal(shown(end(at("|one"))), "one|");
});

Deno.test("kill to end of line keeps the other lines and joins at a line end", () => {
  assert.equal(shown(killToEnd(at("ab|cd\nef"))), "ab|\nef");
  assert.equal(shown(killToEnd(at("ab|\nef"))), "ab|ef");
  assert.equal(shown(killToEnd(at("ab|"))), "ab|");
});

Deno.test("kill to start of line keeps the other lines and joins at a line start", () => {
  assert.equal(shown(killToStart(at("ab\ncd|ef"))), "ab\n|ef");
  assert.equal(shown(killToStart(at("ab\n|ef"))), "ab|ef");
  assert.equal(shown(killToStart(at("|ab"))), "|ab");
});

Deno.test("a newline splits the line at the cursor", () => {
  const state = newline(at("ab|cd"));
  assert.equal(shown(state), "ab\n|cd");
  assert.equal(onFirstLine(state), false);
  assert.equal(onLastLine(state), true);
});

Deno.test("up and down keep the column, clamped to a shorter line", () => {
  assert.equal(shown(lineUp(at("abcdef\nab|c"))), "ab|cdef\nabc");
  assert.equal(shown(lineUp(at("ab\nabcd|ef"))), "ab|\nabcdef");
  assert.equal(shown(lineDown(at("a😀|cd\nxyz"))), "a😀cd\nxy|z");
  assert.equal(shown(lineDown(at("abc|\nx\nyz"))), "abc\nx|\nyz");
  assert.equal(shown(lineUp(at("ab|c\ndef"))), "ab|c\ndef");
  assert.equal(shown(lineDown(at("abc\nd|ef"))), "abc\nd|ef");
});

Deno.test("the first and last line are told apart in a multi-line text", () => {
  assert.equal(onFirstLine(at("ab|\ncd")), true);
  assert.equal(onLastLine(at("ab|\ncd")), false);
  assert.equal(onFirstLine(at("ab\n|cd")), false);
  assert.equal(onLastLine(at("ab\n|cd")), true);
});

Deno.test("moves stay cheap and correct in a long text", () => {
  const long = "word ".repeat(200_000);
  const state = editorWith(long);
  const started = performance.now();
  let moved = state;
  for (let step = 0; step < 1000; step++) moved = left(moved);
  assert.equal(moved.cursor, long.length - 1000);
  assert.ok(performance.now() - started < 1000);
});
