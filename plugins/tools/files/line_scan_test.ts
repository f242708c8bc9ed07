import assert from "node:assert/strict";
import { type LineScan, scanLines } from "./line_scan.ts";

async function scan(
  text: string,
  skip: number,
  options: { from?: number; passed?: number; budget?: number; signal?: AbortSignal } = {},
): Promise<LineScan> {
  const path = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(path, text);
    using file = await Deno.open(path);
    return await scanLines(file, {
      from: options.from ?? 0,
      skip,
      passed: options.passed ?? 0,
      size: new TextEncoder().encode(text).length,
      budget: options.budget ?? 1 << 20,
      signal: options.signal ?? new AbortController().signal,
    });
  } finally {
    await Deno.remove(path);
  }
}

Deno.test("scanLines finds where a line starts, or counts the lines of a shorter file", async () => {
  assert.deepEqual(await scan("a\nb\nc\n", 0), { kind: "found", offset: 0 });
  assert.deepEqual(await scan("a\nb\nc\n", 2), { kind: "found", offset: 4 });
  assert.deepEqual(await scan("a\nb\nc\n", 3), { kind: "beyond", lines: 3 });
  assert.deepEqual(await scan("a\nb\nc", 3), { kind: "beyond", lines: 3 });
  assert.deepEqual(await scan("a\nb\nc", 5), { kind: "beyond", lines: 3 });
  // Going on from a paused scan counts the line breaks passed before it.
  assert.deepEqual(await scan("a\nb\nc", 5, { from: 2, passed: 1 }), {
    kind: "beyond",
    lines: 3,
  });
});

Deno.test("scanLines pauses after its budget of bytes and stops when cancelled", async () => {
  const text = `${"x".repeat(100)}\n${"y".repeat(100)}\nz\n`;
  assert.deepEqual(await scan(text, 2, { budget: 50 }), { kind: "paused", offset: 50, skip: 2 });
  assert.deepEqual(await scan(text, 2, { budget: 150 }), {
    kind: "paused",
    offset: 150,
    skip: 1,
  });
  assert.deepEqual(await scan(text, 1, { from: 150, passed: 1 }), { kind: "found", offset: 202 });
  const controller = new AbortController();
  controller.abort();
  assert.deepEqual(await scan(text, 2, { signal: controller.signal }), { kind: "cancelled" });
});
