import assert from "node:assert/strict";
import { allCells, cellsOf, screenCells } from "./_screen_cells.ts";
import { renderMarkdown } from "./markdown.ts";
import { columns } from "./styled_text.ts";

/** hel's own styling: SGR sequences, the only escape sequences the renderer writes. */
// deno-lint-ignore no-control-regex
const OWN_STYLING = /\x1b\[[0-9;]+m/g;
/** Control characters a terminal acts on (newline aside). */
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;

const COLOR = { width: 60, color: true };
const PLAIN = { width: 60, color: false };

/** The screen a person sees for `markdown` rendered with `options`. */
function shown(markdown: string, options = COLOR) {
  return screenCells(renderMarkdown(markdown, options), options.width);
}

const RICH = [
  "# Title",
  "",
  "Some **bold**, *italic*, ~~gone~~ and `code` with [the docs](https://example.com/docs).",
  "",
  "## Steps",
  "",
  "1. first",
  "2. second",
  "   - nested",
  "",
  "> quoted",
  "",
  "```ts",
  "const answer = 42;",
  "```",
  "",
  "| Name | Count |",
  "| --- | ---: |",
  "| apples | 3 |",
  "",
  "---",
].join("\n");

Deno.test("headings show without their # marks, bold and coloured", async () => {
  const screen = await shown("# Title\n\n### Third level\n\ntext");
  assert.deepEqual(screen.lines, ["Title", "", "Third level", "", "text"]);
  assert.ok(allCells(screen, "Title", (cell) => cell.bold && cell.underline));
  assert.notEqual(cellsOf(screen, "Title")[0]!.color, undefined);
  assert.ok(allCells(screen, "Third level", (cell) => cell.bold));
});

Deno.test("without colour a heading is underlined by a rule, still without # marks", () => {
  assert.equal(
    renderMarkdown("# Title\n\n## Part two\n\ntext", PLAIN),
    "Title\n═════\n\nPart two\n────────\n\ntext",
  );
});

Deno.test("emphasis, strike-through and inline code are styled, their marks gone", async () => {
  const screen = await shown("Some **bold**, *italic*, ~~gone~~ and `code` here.");
  assert.deepEqual(screen.lines, ["Some bold, italic, gone and code here."]);
  assert.ok(allCells(screen, "bold", (cell) => cell.bold));
  assert.ok(allCells(screen, "italic", (cell) => cell.italic && !cell.bold));
  assert.ok(allCells(screen, "gone", (cell) => cell.strikethrough));
  assert.ok(allCells(screen, "code", (cell) => cell.color !== undefined));
  assert.ok(allCells(screen, "Some", (cell) => !cell.bold && cell.color === undefined));
});

Deno.test("without colour inline code keeps its backticks and emphasis is plain text", () => {
  assert.equal(
    renderMarkdown("Some **bold** and `code`.", PLAIN),
    "Some bold and `code`.",
  );
});

Deno.test("links show their text and then their address", async () => {
  const markdown = "See [the docs](https://example.com/docs), <https://example.org> and " +
    "[mail](mailto:a@example.com).";
  const screen = await shown(markdown);
  assert.deepEqual(screen.lines, [
    "See the docs (https://example.com/docs), https://example.org",
    "and mail (mailto:a@example.com).",
  ]);
  assert.ok(allCells(screen, "the docs", (cell) => cell.underline));
  assert.equal(
    renderMarkdown("[the docs](https://example.com/docs)", PLAIN),
    "the docs (https://example.com/docs)",
  );
});

Deno.test("lists show bullets and numbers, nested items indented", () => {
  const markdown =
    "- one\n- two\n  - inner\n    1. deep\n    2. deeper\n- [x] done\n- [ ] open\n\n" +
    "9. nine\n10. ten";
  assert.equal(
    renderMarkdown(markdown, PLAIN),
    [
      "• one",
      "• two",
      "  ◦ inner",
      "    1. deep",
      "    2. deeper",
      "• [x] done",
      "• [ ] open",
      "",
      "9. nine",
      "10. ten",
    ].join("\n"),
  );
});

Deno.test("a long list item wraps under its own text, not under the bullet", () => {
  const markdown = "- " + "word ".repeat(12).trim();
  assert.deepEqual(renderMarkdown(markdown, { width: 20, color: false }).split("\n"), [
    "• word word word",
    "  word word word",
    "  word word word",
    "  word word word",
  ]);
});

Deno.test("items of a loose list are parted by blank lines", () => {
  assert.equal(renderMarkdown("- a\n\n- b", PLAIN), "• a\n\n• b");
});

Deno.test("a block quote is set behind a bar", () => {
  assert.equal(
    renderMarkdown("> first line\n> goes on\n>\n> second paragraph", PLAIN),
    "│ first line goes on\n│\n│ second paragraph",
  );
});

Deno.test("a horizontal rule spans the width", () => {
  assert.equal(
    renderMarkdown("a\n\n---\n\nb", { width: 10, color: false }),
    "a\n\n──────────\n\nb",
  );
});

Deno.test("code blocks show without fences, indented, their keywords highlighted", async () => {
  const markdown = 'Before.\n\n```ts\nconst answer = "yes"; // why\n```\n\nAfter.';
  const screen = await shown(markdown);
  assert.deepEqual(screen.lines, [
    "Before.",
    "",
    '  const answer = "yes"; // why',
    "",
    "After.",
  ]);
  const keyword = cellsOf(screen, "const")[0]!;
  const string = cellsOf(screen, '"yes"')[0]!;
  assert.notEqual(keyword.color, undefined);
  assert.notEqual(string.color, undefined);
  assert.notEqual(keyword.color, string.color);
  assert.ok(allCells(screen, "// why", (cell) => cell.dim));
  assert.ok(allCells(screen, "answer", (cell) => cell.color === undefined));
});

Deno.test("a code block in an unknown language shows plain, its long lines cut to the width", () => {
  const markdown = "```nosuchlanguage\n" + "x".repeat(25) + "\n```";
  assert.equal(
    renderMarkdown(markdown, { width: 12, color: true }),
    ["  xxxxxxxxxx", "  xxxxxxxxxx", "  xxxxx"].join("\n"),
  );
});

Deno.test("tables are drawn with box lines and their columns aligned", () => {
  const markdown = "| Name | Count | Note |\n| :--- | ---: | :---: |\n| apples | 3 | ok |\n" +
    "| kiwis | 120 | fine |";
  assert.equal(
    renderMarkdown(markdown, PLAIN),
    [
      "┌────────┬───────┬──────┐",
      "│ Name   │ Count │ Note │",
      "├────────┼───────┼──────┤",
      "│ apples │     3 │  ok  │",
      "│ kiwis  │   120 │ fine │",
      "└────────┴───────┴──────┘",
    ].join("\n"),
  );
});

Deno.test("a table wider than the screen is narrowed and its cells wrapped", () => {
  const markdown = "| Key | Description |\n| --- | --- |\n| a | " + "long words ".repeat(8).trim() +
    " |";
  assert.equal(
    renderMarkdown(markdown, { width: 30, color: false }),
    [
      "┌─────┬──────────────────────┐",
      "│ Key │ Description          │",
      "├─────┼──────────────────────┤",
      "│ a   │ long words long      │",
      "│     │ words long words     │",
      "│     │ long words long      │",
      "│     │ words long words     │",
      "│     │ long words long      │",
      "│     │ words                │",
      "└─────┴──────────────────────┘",
    ].join("\n"),
  );
});

Deno.test("a table too wide for its columns is shown row by row", () => {
  const markdown = "| a | b | c | d |\n|---|---|---|---|\n| 1 | 2 | 3 | 4 |\n| 5 | 6 | 7 | 8 |";
  assert.equal(
    renderMarkdown(markdown, { width: 12, color: false }),
    "a: 1\nb: 2\nc: 3\nd: 4\n────────────\na: 5\nb: 6\nc: 7\nd: 8",
  );
});

Deno.test("every line fits the width, wide characters and emoji counted as two columns", () => {
  const markdown = "日本語の文章はスペースがなくても折り返されます。 Emoji 👍🏽 and words " +
    "continue here.\n\n- 中文列表项目也会按宽度折行显示出来\n\n> 引用もバーの内側で折り返します";
  for (const width of [12, 20, 33]) {
    const lines = renderMarkdown(markdown, { width, color: false }).split("\n");
    assert.ok(lines.every((line) => columns(line) <= width), `${width}:\n${lines.join("\n")}`);
  }
  assert.equal(
    renderMarkdown("日本語の文章", { width: 8, color: false }),
    "日本語の\n文章",
  );
});

Deno.test("without colour nothing is an escape sequence, and no # or fence is left", () => {
  const text = renderMarkdown(RICH, PLAIN);
  assert.ok(!text.includes("\x1b"));
  assert.doesNotMatch(text, /^#|```/m);
  assert.match(text, /^Title$/m);
  assert.match(text, /^ {2}const answer = 42;$/m);
  assert.ok(text.includes("│ apples │     3 │"), text);
});

Deno.test("with colour the only escape sequences are hel's own styling", () => {
  const text = renderMarkdown(RICH, COLOR);
  assert.ok((text.match(OWN_STYLING) ?? []).length > 10);
  assert.doesNotMatch(text.replace(OWN_STYLING, ""), CONTROL);
});

Deno.test("escape sequences in the answer are shown as text, never sent to the terminal", async () => {
  const hostile = [
    "Title\x1b]0;pwned\x07 here and \x1b[8mhidden\x1b[0m text\x9b31m and a\rcarriage",
    "",
    "```sh\necho \x1b[2J cleared\n```",
    "",
    "| a\x1b[8m | b |\n|---|---|\n| \x1b]8;;http://evil\x07x | y |",
    "",
    "[link](http://x\x1b[8m) `code\x07`",
  ].join("\n");
  for (const options of [COLOR, PLAIN]) {
    const text = renderMarkdown(hostile, options);
    assert.doesNotMatch(text.replace(OWN_STYLING, ""), CONTROL);
    const screen = await screenCells(text, options.width);
    assert.equal(screen.title, "");
    assert.ok(allCells(screen, "hidden", (cell) => !cell.invisible));
    assert.match(screen.lines.join("\n"), /\\u001b\]0;pwned\\u0007/);
    assert.match(screen.lines.join("\n"), /echo \\u001b\[2J cleared/);
    assert.match(screen.lines.join("\n"), /a\\u000dcarriage/);
  }
});

Deno.test("the common HTML entities read as their characters", () => {
  assert.equal(renderMarkdown("a &lt; b &amp;&amp; c &gt; d", PLAIN), "a < b && c > d");
});

Deno.test("a terminal that does not say its width gets 80 columns", () => {
  const rule = renderMarkdown("---", { width: Number.NaN, color: false });
  assert.equal(rule, "─".repeat(80));
});
