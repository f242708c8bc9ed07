import assert from "node:assert/strict";
import { DirectoryTree } from "./tree_changes.ts";
import { testWorkspace } from "../../plugins/tools/testing.ts";

const FUTURE = () => Date.now() + 60_000;

Deno.test("the tree reads only folders changed since a moment", async () => {
  await using t = await testWorkspace({ "a/b/f.txt": "f\n", "c/g.txt": "g\n" });
  const tree = new DirectoryTree(t.project, new Set([`${t.project}/.hel`]));
  const all = await tree.scan();
  const rel = (found: Map<string, unknown>) =>
    [...found.keys()].map((dir) => dir.slice(t.project.length) || "/").sort();
  assert.deepEqual(rel(all), ["/", "/a", "/a/b", "/c"]);
  assert.deepEqual(all.get(`${t.project}/a/b`), { names: ["f.txt"] });
  // Nothing changed after a moment still to come.
  assert.deepEqual(rel(await tree.changedSince(FUTURE())), []);
  // Everything counts as changed since long ago; a new subtree is read whole, a folder
  // gone is forgotten.
  await Deno.mkdir(`${t.project}/c/new/deeper`, { recursive: true });
  await Deno.writeTextFile(`${t.project}/c/new/deeper/HEAD`, "ref: refs/heads/main\n");
  await Deno.remove(`${t.project}/a`, { recursive: true });
  const changed = await tree.changedSince(0);
  assert.deepEqual(rel(changed), ["/", "/c", "/c/new", "/c/new/deeper"]);
  assert.deepEqual(changed.get(`${t.project}/c/new/deeper`), { names: ["HEAD"] });
  assert.equal(tree.size, 4);
});

Deno.test("a name that is not UTF-8 cannot be read, and the tree says so", async () => {
  await using t = await testWorkspace();
  const tree = new DirectoryTree(t.project);
  await tree.scan();
  // Deno cannot spell such a name; a shell can.
  const made = await new Deno.Command("/bin/sh", {
    args: ["-c", "mkdir \"$(printf 'x\\377')\""],
    cwd: t.project,
  }).output();
  assert.ok(made.success);
  const changed = await tree.changedSince(0);
  assert.equal(changed.get(t.project)?.unreadable, "x\uFFFD");
});
