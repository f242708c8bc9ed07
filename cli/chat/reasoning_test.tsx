import assert from "node:assert/strict";
import { renderToString } from "ink";
import { Reasoning } from "./reasoning.tsx";

const THOUGHT = "The user wants the tests fixed.\nFirst read the failing test.\nThen the code.";

const shown = (text: string, expanded = false, width = 60) =>
  renderToString(<Reasoning text={text} expanded={expanded} color={false} width={width} />, {
    columns: width,
  });

Deno.test("reasoning is collapsed to its first line with an ellipsis", () => {
  assert.equal(shown(THOUGHT), "✻ thinking  The user wants the tests fixed.…");
});

Deno.test("reasoning of one line is shown without an ellipsis", () => {
  assert.equal(shown("  Just one thought.\n"), "✻ thinking  Just one thought.");
});

Deno.test("expanded reasoning shows all of it under its label", () => {
  assert.equal(
    shown(THOUGHT, true),
    "✻ thinking\n  The user wants the tests fixed.\n  First read the failing test.\n  Then the code.",
  );
});

Deno.test("a long first line is cut to the width", () => {
  const text = shown("word ".repeat(100), false, 40);
  assert.equal(text.split("\n").length, 1);
  assert.ok(text.endsWith("…"), text);
});

Deno.test("reasoning not yet begun shows only its label", () => {
  assert.equal(shown(""), "✻ thinking");
});
