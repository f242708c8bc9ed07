import assert from "node:assert/strict";
import { convertCallResult } from "./result.ts";

Deno.test("text blocks are joined with newlines; other blocks become markers", () => {
  assert.deepEqual(
    convertCallResult({
      content: [
        { type: "text", text: "one" },
        { type: "image", data: "x", mimeType: "image/png" },
        { type: "resource", resource: {} },
        { nope: true },
        { type: "text", text: "two" },
      ],
    }),
    {
      ok: true,
      text:
        "one\n[image content omitted]\n[resource content omitted]\n[unknown content omitted]\ntwo",
    },
  );
});

Deno.test("without text, structuredContent as compact JSON", () => {
  assert.deepEqual(convertCallResult({ content: [], structuredContent: { port: 8437 } }), {
    ok: true,
    text: '{"port":8437}',
  });
  assert.deepEqual(
    convertCallResult({ content: [{ type: "image" }], structuredContent: { a: [1, 2] } }),
    { ok: true, text: '{"a":[1,2]}' },
  );
  // With text, the text wins.
  assert.deepEqual(
    convertCallResult({ content: [{ type: "text", text: "t" }], structuredContent: { a: 1 } }),
    { ok: true, text: "t" },
  );
});

Deno.test("nothing at all reads (empty result); isError fails the call", () => {
  assert.deepEqual(convertCallResult({}), { ok: true, text: "(empty result)" });
  assert.deepEqual(convertCallResult(null), { ok: true, text: "(empty result)" });
  assert.deepEqual(
    convertCallResult({ content: [{ type: "text", text: "tool failed" }], isError: true }),
    {
      ok: false,
      text: "tool failed",
    },
  );
});

Deno.test("a block type is shown as a plain word", () => {
  assert.equal(
    convertCallResult({ content: [{ type: "\u001b[31mred\nline" }] }).text,
    "[__31mred_line content omitted]",
  );
});
