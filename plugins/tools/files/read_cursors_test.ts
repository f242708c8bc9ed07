import assert from "node:assert/strict";
import { CursorStore } from "./read_cursors.ts";

const identity = { dev: 1, ino: 2, size: 3, mtimeMs: 4, ctimeMs: 5 };
const cursor = { path: "/p/a.txt", offset: 10, remainingLines: undefined, identity };

Deno.test("restored cursors keep a paused line search; malformed ones are dropped", () => {
  const store = new CursorStore();
  store.restore([
    ["plain", cursor],
    ["paused", { ...cursor, line: 5, skipLines: 3 }],
    ["negative", { ...cursor, line: 5, skipLines: -1 }],
    ["fraction", { ...cursor, line: 1.5 }],
    ["text", { ...cursor, skipLines: "3" }],
    ["no-identity", { path: "/p/a.txt", offset: 0 }],
  ]);
  assert.deepEqual(store.save().map(([id]) => id), ["plain", "paused"]);
  assert.deepEqual(store.get("paused"), { ...cursor, line: 5, skipLines: 3 });
});
