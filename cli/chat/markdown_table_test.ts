import assert from "node:assert/strict";
import { fitColumns } from "./markdown_table.ts";

Deno.test("columns that fit keep their natural widths", () => {
  assert.deepEqual(fitColumns([5, 10, 3], 30), [5, 10, 3]);
});

Deno.test("the widest columns are narrowed first, the narrow ones kept", () => {
  assert.deepEqual(fitColumns([4, 40, 30], 40), [4, 18, 18]);
  assert.deepEqual(fitColumns([4, 40, 30], 41), [4, 19, 18]);
});

Deno.test("no column is narrowed below three", () => {
  assert.deepEqual(fitColumns([50, 50, 50], 9), [3, 3, 3]);
});
