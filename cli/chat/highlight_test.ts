import assert from "node:assert/strict";
import { highlightCode, knowsLanguage } from "./highlight.ts";

const styleOf = (code: string, language: string, word: string) =>
  highlightCode(code, language).lines.flat().find((span) => span.text === word)?.style;

Deno.test("keywords, strings and comments get different colours", () => {
  const code = 'const name = "hel"; // the name';
  const keyword = styleOf(code, "typescript", "const");
  const string = styleOf(code, "typescript", '"hel"');
  const comment = styleOf(code, "typescript", "// the name");
  assert.ok(keyword && string && comment);
  assert.equal(new Set([keyword, string, comment]).size, 3);
  assert.equal(styleOf(code, "typescript", " name = "), "");
});

Deno.test("languages are known by their usual short names too", () => {
  for (const name of ["ts", "js", "py", "sh", "bash", "json", "rust", "go", "yaml", "TypeScript"]) {
    assert.ok(knowsLanguage(name), name);
  }
  assert.ok(!knowsLanguage("nosuchlanguage"));
  assert.ok(!knowsLanguage(undefined));
});

Deno.test("code in an unknown language keeps its text, unstyled", () => {
  const { lines } = highlightCode("a < b\n\nc", "nosuchlanguage");
  assert.deepEqual(lines, [[{ text: "a < b", style: "" }], [], [{ text: "c", style: "" }]]);
});

Deno.test("the code reads exactly as written, characters highlight.js escapes included", () => {
  const code = `if (a < b && c > d) { s = "q'uote" + '&amp;'; }\n\tnext`;
  const { lines } = highlightCode(code, "javascript");
  assert.equal(lines.map((line) => line.map((span) => span.text).join("")).join("\n"), code);
});

Deno.test("a line inside a comment that spans lines is not a place to cut", () => {
  const code = "let a = 1;\n/* one\ntwo */\nlet b = 2;";
  const { lines, closedAfter } = highlightCode(code, "javascript");
  assert.deepEqual(closedAfter, [true, false, true, true]);
  assert.equal(lines[2]![0]!.style, lines[1]![0]!.style);
});
