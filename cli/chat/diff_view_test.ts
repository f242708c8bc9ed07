import assert from "node:assert/strict";
import { diffLines, renderDiff } from "./diff_view.ts";

// deno-lint-ignore no-control-regex
const HEL_STYLES = /\x1b\[(1|2|22|31|32|36|39)m/g;
// deno-lint-ignore no-control-regex
const TERMINAL_CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

const text = (change: Parameters<typeof diffLines>[0]) =>
  diffLines(change).map((line) => line.text);

Deno.test("an edit shows a hunk header, context lines and the -/+ lines", () => {
  const before = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n";
  const after = "one\ntwo\nthree\nfour\n5\nsix\nseven\neight\n";
  assert.deepEqual(text({ path: "n.txt", before, after }), [
    "@@ -2,7 +2,7 @@",
    " two",
    " three",
    " four",
    "-five",
    "+5",
    " six",
    " seven",
    " eight",
  ]);
});

Deno.test("a new file is all additions, and the full diff names /dev/null as its old side", () => {
  assert.deepEqual(text({ path: "src/new.ts", before: null, after: "a\n\tb\n" }), [
    "@@ -0,0 +1,2 @@",
    "+a",
    "+    b",
  ]);
  assert.equal(
    renderDiff({ path: "src/new.ts", before: null, after: "a\n" }, { color: false }),
    "--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,1 @@\n+a",
  );
  assert.deepEqual(text({ path: "e", before: null, after: "" }), ["(a new, empty file)"]);
  assert.deepEqual(text({ path: "e", before: "x\n", after: "x\n" }), [
    "(the text does not change)",
  ]);
});

Deno.test("colour marks removals red and additions green, and only when asked", () => {
  const change = { path: "a.txt", before: "old\n", after: "new\n" };
  const coloured = renderDiff(change, { color: true }).split("\n");
  assert.ok(coloured.includes("\x1b[31m-old\x1b[39m"));
  assert.ok(coloured.includes("\x1b[32m+new\x1b[39m"));
  assert.equal(renderDiff(change, { color: false }).includes("\x1b"), false);
});

Deno.test("the file's escape sequences and padding are shown, never sent to the terminal", () => {
  const after = "\x1b]0;owned\x07title\u202e\n" + "x" + " ".repeat(3000) + "rm -rf ~\n" +
    "\t".repeat(3) + "deep\n" + " ".repeat(200) + "far\n";
  const lines = text({ path: "evil\x1b[2J.txt", before: "", after });
  assert.deepEqual(lines, [
    "@@ -0,0 +1,4 @@",
    "+\\u001b]0;owned\\u0007title\\u202e",
    "+x [3000 spaces] rm -rf ~",
    "+            deep",
    "+[indented 200 columns] far",
  ]);
  assert.match(
    renderDiff({ path: "evil\x1b[2J.txt", before: null, after }, { color: true }),
    /b\/evil\\u001b\[2J\.txt/,
  );
  for (const line of renderDiff({ path: "x", before: null, after }, { color: true }).split("\n")) {
    // Only hel's own colour codes remain.
    const plain = line.replace(HEL_STYLES, "");
    assert.doesNotMatch(plain, TERMINAL_CONTROLS, JSON.stringify(plain));
  }
});

Deno.test("a missing final newline is noted, not hidden", () => {
  assert.deepEqual(text({ path: "a", before: "a\nb", after: "a\nc" }), [
    "@@ -1,2 +1,2 @@",
    " a",
    "-b",
    "\\ No newline at end of file",
    "+c",
    "\\ No newline at end of file",
  ]);
});

Deno.test("a rewrite too large to compare in time is shown as the whole text replaced", () => {
  const before = Array.from({ length: 30000 }, (_, i) => `line ${i}`).join("\n");
  const after = Array.from({ length: 30000 }, (_, i) => `other ${i}`).join("\n");
  const started = performance.now();
  const lines = diffLines({ path: "big", before, after });
  assert.ok(performance.now() - started < 5000);
  assert.equal(lines[0]!.kind, "note");
  assert.equal(lines[1]!.text, "@@ -1,30000 +1,30000 @@");
  assert.equal(lines.filter((line) => line.kind === "removed").length, 30000);
  assert.equal(lines.filter((line) => line.kind === "added").length, 30000);
});
