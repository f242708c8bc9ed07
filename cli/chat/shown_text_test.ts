import assert from "node:assert/strict";
import { shownCommandLine, shownContentLine, shownName } from "./shown_text.ts";

Deno.test("a command line shows controls, invisibles and tabs as escapes and counts padding", () => {
  assert.equal(
    shownCommandLine(`ls\t-la${" ".repeat(300)}\x1b[8m\u200bhidden\r`),
    "ls\\t-la [300 spaces] \\u001b[8m\\u200bhidden\\u000d",
  );
  assert.equal(shownCommandLine("git status  -s"), "git status  -s");
});

Deno.test("a name shows a newline in it as \\n", () => {
  assert.equal(shownName("a\nb\x07"), "a\\nb\\u0007");
});

Deno.test("a file's line keeps its indentation, expands tabs, and counts padding elsewhere", () => {
  assert.equal(shownContentLine("\t\tif (x) {"), "        if (x) {");
  assert.equal(shownContentLine(`${" ".repeat(64)}deep`), `${" ".repeat(64)}deep`);
  assert.equal(shownContentLine(`${" ".repeat(65)}deeper`), "[indented 65 columns] deeper");
  assert.equal(shownContentLine(`x${" ".repeat(40)}y`), "x [40 spaces] y");
  assert.equal(shownContentLine("\u202eevil\x1b]8;;x\x07"), "\\u202eevil\\u001b]8;;x\\u0007");
});
