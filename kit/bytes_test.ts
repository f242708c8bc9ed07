import assert from "node:assert/strict";
import { concatBytes } from "./bytes.ts";

Deno.test("concatBytes joins parts in order, empty ones included, into a new array", () => {
  const first = new Uint8Array([1, 2]);
  assert.deepEqual(
    concatBytes([first, new Uint8Array(), new Uint8Array([3])]),
    new Uint8Array([1, 2, 3]),
  );
  assert.deepEqual(concatBytes([]), new Uint8Array());
  const single = concatBytes([first]);
  single[0] = 9;
  assert.equal(first[0], 1);
});
