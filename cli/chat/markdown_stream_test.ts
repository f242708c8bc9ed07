import assert from "node:assert/strict";
import { lexer } from "marked";
import { neutralise } from "../../core/neutralise.ts";
import { cellsOf, screenCells } from "./_screen_cells.ts";
import { CODE_PIECE_LINES } from "./markdown_code.ts";
import { type MarkdownOptions, MarkdownStream, renderMarkdown } from "./markdown.ts";

/** `text` streamed in deltas of the given sizes (cycled), as the chat would take it. */
function streamed(text: string, sizes: readonly number[], options: MarkdownOptions): string {
  const stream = new MarkdownStream(options);
  const shown: string[] = [];
  let at = 0;
  for (let step = 0; at < text.length; step++) {
    const size = sizes[step % sizes.length]!;
    stream.push(text.slice(at, at + size));
    at += size;
    shown.push(...stream.takeSettled());
    stream.live();
  }
  shown.push(...stream.finish());
  return shown.join("\n");
}

const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
const pieceOfCode = Array.from({ length: 40 }, (_, i) => `let v${i} = ${i};`).join("\n");

/** Documents whose block boundaries are easy to get wrong when they arrive in pieces. */
const DOCUMENTS: Record<string, string> = {
  "hel's README": readme,
  "blocks that interrupt a paragraph": "Intro\n| a | b |\n|---|---|\n| 1 | 2 |\nrow goes on\n" +
    "Setext\n===\npara\n---\n- item\nlazy line\n- two\n\n  still two\n* other bullet\n1) one\n",
  "fences of every kind": "~~~~python\ndef f():\n    '''doc\n~~~\n    text'''\n~~~~~\nAfter.\n" +
    "    lazy continuation\n\n    indented code\n\n```js\n" + pieceOfCode +
    "\n/* a comment\nacross the cut\n*/\n```\ntail",
  "quotes, html and references": "> quote\nlazy\n> > nested\n\n<div>\nhtml\n</div>\n\n" +
    '[ref]: https://example.com "T"\n\nUse [ref] and [missing].\n',
  "an unclosed fence and line ends of every kind": "text\r\n\r\n```\ncode\r\nmore\rstill",
  "wide characters": "日本語の段落です。\n\n- 項目 👍🏽\n\n| 列 | 値 |\n|---|---|\n| あ | 1 |\n",
};

const MIXED_DELTAS = [[2, 3], [20], [4096], [7, 1, 13, 50, 2]];

Deno.test("a streamed answer renders as the whole answer does, whatever the deltas", () => {
  for (const [name, document] of Object.entries(DOCUMENTS)) {
    for (const options of [{ width: 72, color: true }, { width: 40, color: false }]) {
      const whole = renderMarkdown(document, options);
      // One-character deltas over the long README cost seconds and find nothing the mixed
      // sizes (which include 1) do not; the short documents still get them.
      const deltaSizes = document.length > 4_000 ? MIXED_DELTAS : [[1], ...MIXED_DELTAS];
      for (const sizes of deltaSizes) {
        assert.equal(
          streamed(document, sizes, options),
          whole,
          `${name}, deltas of ${sizes}, ${JSON.stringify(options)}`,
        );
      }
    }
  }
});

Deno.test("the answer is cut into the blocks marked finds in the whole of it", () => {
  const options = { width: 72, color: true };
  for (const [name, document] of Object.entries(DOCUMENTS)) {
    const blocks = lexer(neutralise(document)).filter((token) => token.type !== "space");
    // A block drawn alone would not know the link definitions before it.
    if (blocks.some((token) => token.type === "def")) continue;
    const oneByOne = blocks.map((token) => renderMarkdown(token.raw, options));
    assert.equal(
      renderMarkdown(document, options),
      oneByOne.filter((text) => text !== "").join("\n\n"),
      name,
    );
  }
});

Deno.test("a block settles once the next one begins, and is handed out once", () => {
  const stream = new MarkdownStream({ width: 40, color: false });
  stream.push("First para");
  assert.deepEqual(stream.takeSettled(), []);
  assert.equal(stream.live(), "First para");
  stream.push("graph.\n\nSecond");
  assert.deepEqual(stream.takeSettled(), []);
  stream.push(" one.\n");
  assert.deepEqual(stream.takeSettled(), ["First paragraph."]);
  assert.deepEqual(stream.takeSettled(), []);
  // The live part starts with the empty line that parts it from what settled.
  assert.equal(stream.live(), "\nSecond one.");
  assert.deepEqual(stream.finish(), ["\nSecond one."]);
  assert.equal(stream.live(), "");
});

Deno.test("the live part shows a table as it grows, before it settles", () => {
  const stream = new MarkdownStream({ width: 40, color: false });
  stream.push("| a | b |\n|---|---|\n| 1 | 2 |\n| 3");
  assert.deepEqual(stream.takeSettled(), []);
  assert.equal(
    stream.live(),
    "┌───┬───┐\n│ a │ b │\n├───┼───┤\n│ 1 │ 2 │\n│ 3 │   │\n└───┴───┘",
  );
});

Deno.test("a long code block settles piece by piece while it is still open", () => {
  const stream = new MarkdownStream({ width: 40, color: false });
  stream.push("Intro.\n\n```\n");
  for (let i = 0; i < CODE_PIECE_LINES * 2; i++) stream.push(`line ${i}\n`);
  const settled = stream.takeSettled().join("\n").split("\n");
  // Intro, the blank line, then code lines while the fence has not closed.
  assert.ok(settled.length > CODE_PIECE_LINES, `${settled.length} lines settled`);
  assert.equal(settled[2], "  line 0");
  assert.match(stream.live(), /^ {2}line \d+$/m);
  stream.push("```\nAfter.");
  const rest = stream.finish().join("\n").split("\n");
  assert.deepEqual(rest.slice(-3), [`  line ${CODE_PIECE_LINES * 2 - 1}`, "", "After."]);
});

Deno.test("a comment that spans two pieces of a long code block stays highlighted", async () => {
  const lines = Array.from({ length: CODE_PIECE_LINES - 2 }, (_, i) => `let v${i} = ${i};`);
  const markdown = "```js\n" + [...lines, "/* opened in one piece", "still inside", "closed */"]
    .join("\n") +
    "\n```";
  const stream = new MarkdownStream({ width: 60, color: true });
  for (const line of markdown.split(/(?<=\n)/)) stream.push(line);
  const screen = await screenCells([...stream.takeSettled(), ...stream.finish()].join("\n"));
  for (const text of ["opened in one piece", "still inside", "closed */"]) {
    assert.ok(cellsOf(screen, text).every((cell) => cell.dim), text);
  }
});

Deno.test("the line of code still arriving shows plain until it is whole", async () => {
  const stream = new MarkdownStream({ width: 60, color: true });
  stream.push("```ts\nconst a = 1;\nconst b");
  const screen = await screenCells(stream.live());
  assert.deepEqual(screen.lines, ["  const a = 1;", "  const b"]);
  assert.notEqual(cellsOf(screen, "const a")[0]!.color, undefined);
  assert.equal(cellsOf(screen, "const b")[0]!.color, undefined);
});

Deno.test("an escape sequence cut between two deltas is still shown as text", () => {
  const stream = new MarkdownStream({ width: 60, color: false });
  stream.push("before \x1b");
  stream.push("]0;title\x07 after\r");
  stream.push("\nnext line");
  const text = stream.finish().join("\n");
  assert.equal(text, "before \\u001b]0;title\\u0007 after next line");
});

Deno.test("text pushed after the stream finished is ignored", () => {
  const stream = new MarkdownStream({ width: 60, color: false });
  stream.push("done");
  assert.deepEqual(stream.finish(), ["done"]);
  stream.push("\n\nlate");
  assert.deepEqual(stream.finish(), []);
  assert.deepEqual(stream.takeSettled(), []);
});

Deno.test("a long list settles item by item, so its open part stays one item long", () => {
  const stream = new MarkdownStream({ width: 80, color: false });
  const items = Array.from({ length: 2_000 }, (_, i) => `${i + 1}. item with a few words\n`);
  const shown: string[] = [];
  let longestLive = 0;
  for (const item of items) {
    for (let at = 0; at < item.length; at += 20) {
      stream.push(item.slice(at, at + 20));
      shown.push(...stream.takeSettled());
      longestLive = Math.max(longestLive, stream.live().split("\n").length);
    }
  }
  assert.ok(shown.length > 1_000, `${shown.length} pieces settled while the list streamed`);
  assert.ok(longestLive <= 2, `the live part held ${longestLive} lines`);
  const lines = [...shown, ...stream.finish()].join("\n").split("\n");
  assert.equal(lines.length, 2_000);
  assert.equal(lines[1_999], "2000. item with a few words");
});
