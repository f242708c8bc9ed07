import assert from "node:assert/strict";
import { testWorkspace } from "../testing.ts";
import { pathTarget, treeTarget } from "./rule_path.ts";

Deno.test("rule paths are relative to the project; a name starting with .. is still inside", async () => {
  await using t = await testWorkspace({ "src/a.ts": "x", "..env": "SECRET=1" });
  assert.deepEqual(await pathTarget(t.workspace, "src/a.ts"), { kind: "path", path: "src/a.ts" });
  assert.deepEqual(await pathTarget(t.workspace, "..env"), { kind: "path", path: "..env" });
  assert.deepEqual(await pathTarget(t.workspace, "."), { kind: "path", path: "." });
  assert.deepEqual(await treeTarget(t.workspace, "src"), { kind: "path", path: "src", tree: true });
  assert.deepEqual(await pathTarget(t.workspace, "../outside"), { kind: "path", path: undefined });
});
