import assert from "node:assert/strict";
import { test } from "node:test";
import { escapeControlCharacters, neutralise, shownBlankRuns } from "./neutralise.ts";

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

test("neutralise keeps newlines and tabs and escapes C0, DEL and C1", () => {
  assert.equal(neutralise("a\tb\nc"), "a\tb\nc");
  assert.equal(
    neutralise("\u0000\u0007\b\u001b\u007f\u0085\u009b"),
    [
      "\\u0000",
      "\\u0007",
      "\\u0008",
      "\\u001b",
      "\\u007f",
      "\\u0085",
      "\\u009b",
    ].join(""),
  );
});

test("neutralise shows every kind of escape sequence as text", () => {
  const sequences = {
    csi: "\x1b[8m",
    c1Csi: "\u009b8m",
    osc: "\x1b]52;c;Y3VybA==\x07",
    oscSt: "\x1b]0;title\x1b\\",
    dcs: "\x1bP1$qm\x1b\\",
    apc: "\x1b_payload\x1b\\",
    pm: "\x1b^privacy\x1b\\",
    sos: "\x1bXstring\x1b\\",
    c1Osc: "\u009d0;title\u009c",
  };
  for (const [kind, sequence] of Object.entries(sequences)) {
    const shown = neutralise(`a${sequence}b`);
    assert.doesNotMatch(shown, CONTROL, kind);
    assert.ok(shown.startsWith("a\\u00") && shown.endsWith("b"), `${kind}: ${shown}`);
  }
});

test("neutralise turns CRLF into a newline and escapes a lone carriage return", () => {
  assert.equal(neutralise("one\r\ntwo"), "one\ntwo");
  assert.equal(neutralise("safe\rrm -rf ~"), "safe\\u000drm -rf ~");
  assert.equal(escapeControlCharacters("one\r\ntwo"), "one\\u000d\ntwo");
});

test("neutralise is idempotent: its output has nothing left to escape", () => {
  const text = "x\x1b]0;t\x07\u009b\r\n\u202e";
  const once = neutralise(text, { invisibles: true });
  assert.equal(neutralise(once, { invisibles: true }), once);
  assert.equal(neutralise(neutralise(text)), neutralise(text));
});

test("streamed chunks neutralised one by one leave no sequence, however they are cut", () => {
  const text = "hi \x1b[8mhidden\x1b]52;c;eA==\x07 \u009b2J end";
  for (let cut = 0; cut <= text.length; cut++) {
    const shown = neutralise(text.slice(0, cut)) + neutralise(text.slice(cut));
    assert.equal(shown, neutralise(text), `cut at ${cut}`);
    assert.doesNotMatch(shown, CONTROL, `cut at ${cut}`);
  }
});

test("neutralise keeps emoji joiners; with invisibles it escapes bidi and hidden characters", () => {
  const family = "\u{1f468}\u200d\u{1f469}\u200d\u{1f467}";
  assert.equal(neutralise(family), family);
  assert.equal(neutralise("a\u202eb"), "a\u202eb");
  assert.equal(
    neutralise("a\u202eb\u200bc\u{e0041}", { invisibles: true }),
    "a\\u202eb\\u200bc\\u{e0041}",
  );
  assert.equal(escapeControlCharacters("a\u202eb\x1b"), "a\\u202eb\\u001b");
});

test("shownBlankRuns counts long runs of blanks, of any kind, and leaves short ones", () => {
  assert.equal(shownBlankRuns(`a${" ".repeat(5000)}b`), "a [5000 spaces] b");
  assert.equal(shownBlankRuns(`a${"\u3000\u2800".repeat(6)}b`), "a [12 blank characters] b");
  assert.equal(shownBlankRuns("a       b"), "a       b");
});
