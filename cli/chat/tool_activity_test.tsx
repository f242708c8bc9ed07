import assert from "node:assert/strict";
import { renderToString } from "ink";
import { outputPreview, ToolActivity, type ToolActivityState } from "./tool_activity.tsx";

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`);

function shown(call: Partial<ToolActivityState>, expanded = false, width = 60): string {
  const state: ToolActivityState = {
    callId: "call_1",
    name: "bash",
    summary: "npm test",
    status: "done",
    output: "",
    ...call,
  };
  return renderToString(
    <ToolActivity call={state} expanded={expanded} color={false} width={width} />,
    { columns: width },
  );
}

Deno.test("each status has its own mark, and declined reads as a decision", () => {
  assert.equal(shown({ status: "running" }), "⋯ bash  npm test");
  assert.equal(shown({ status: "done" }), "✓ bash  npm test");
  assert.equal(shown({ status: "failed" }), "✗ bash  npm test  failed");
  assert.equal(shown({ status: "declined" }), "⊘ bash  npm test  declined");
  assert.equal(shown({ status: "asking" }), "? bash  npm test  waiting for your answer");
});

Deno.test("a short result is shown whole under its call", () => {
  assert.equal(
    shown({ name: "read_file", summary: "src/a.ts", output: "alpha\nbeta\n" }),
    "✓ read_file  src/a.ts\n  ⎿  alpha\n     beta",
  );
});

Deno.test("a long result shows its first four lines and how to see the rest", () => {
  assert.equal(
    shown({ output: lines(16).join("\n") }),
    [
      "✓ bash  npm test",
      "  ⎿  line 1",
      "     line 2",
      "     line 3",
      "     line 4",
      "     … +12 lines (ctrl+o to expand)",
    ].join("\n"),
  );
});

Deno.test("an expanded result shows every line", () => {
  const text = shown({ output: lines(16).join("\n") }, true);
  assert.equal(text.split("\n").length, 17);
  assert.match(text, /^ {5}line 16$/m);
  assert.doesNotMatch(text, /ctrl\+o/);
});

Deno.test("a command still running shows its latest lines under the count of earlier ones", () => {
  assert.equal(
    shown({ status: "running", output: lines(7).join("\n") + "\n" }),
    [
      "⋯ bash  npm test",
      "  ⎿  … 3 lines before (ctrl+o to expand)",
      "     line 4",
      "     line 5",
      "     line 6",
      "     line 7",
    ].join("\n"),
  );
});

Deno.test("a long output line is cut to the width, not wrapped", () => {
  const text = shown({ output: "x".repeat(500) }, false, 40);
  assert.equal(text.split("\n").length, 2);
  assert.ok(text.split("\n")[1]!.endsWith("…"));
});

Deno.test("tabs in output are spaced to the next stop of eight", () => {
  assert.deepEqual(outputPreview("a\tb\n\tc", false, false).lines, ["a       b", "        c"]);
});

Deno.test("a call without arguments shows only the tool", () => {
  assert.equal(shown({ name: "mcp__docs__list", summary: "" }), "✓ mcp__docs__list");
});

Deno.test("the preview of a huge output counts its lines and keeps only a few", () => {
  const output = lines(200_000).join("\n");
  const result = outputPreview(output, false, false);
  assert.deepEqual(result.lines, lines(4));
  assert.equal(result.hidden, "+199,996 lines");
  const live = outputPreview(output, true, false);
  assert.deepEqual(live.lines, lines(200_000).slice(-4));
  assert.equal(live.hidden, "199,996 lines before");
});
