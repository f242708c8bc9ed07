import assert from "node:assert/strict";
import { searchReplaceTool } from "./search_replace.ts";
import { call, testWorkspace } from "../testing.ts";
import { WHOLE_FILE_MAX_BYTES } from "./whole_file.ts";

Deno.test("search_replace replaces exactly one occurrence, literally", async () => {
  await using t = await testWorkspace({ "a.ts": "const x = 1;\nconst y = 2;\n" });
  const tool = searchReplaceTool(t.workspace);
  assert.deepEqual(await call(tool, { path: "a.ts", search: "y = 2", replace: "y = $& + $1" }), {
    ok: true,
    text: "replaced 1 occurrence in a.ts",
  });
  assert.equal(await t.read("a.ts"), "const x = 1;\nconst y = $& + $1;\n");
  assert.equal(
    (await call(tool, { path: "a.ts", search: "const x = 1;\n", replace: "" })).ok,
    true,
  );
  assert.equal(await t.read("a.ts"), "const y = $& + $1;\n");
});

Deno.test("search_replace fails with the count for zero or several and leaves the file", async () => {
  const text = "aa aa\nb\n";
  await using t = await testWorkspace({ "a.txt": text });
  const tool = searchReplaceTool(t.workspace);
  assert.deepEqual(await call(tool, { path: "a.txt", search: "zzz", replace: "q" }), {
    ok: false,
    text: "search string occurs 0 times in a.txt; it must occur exactly once. Read the file " +
      "and copy the text exactly, including whitespace and indentation",
  });
  assert.deepEqual(await call(tool, { path: "a.txt", search: "aa", replace: "q" }), {
    ok: false,
    text: "search string occurs 2 times in a.txt; it must occur exactly once. Include more " +
      "of the surrounding lines to make it unique",
  });
  // Non-overlapping: "aaaa" holds "aa" twice, not three times.
  await t.write("b.txt", "aaaa");
  assert.match((await call(tool, { path: "b.txt", search: "aa", replace: "" })).text, /2 times/);
  assert.equal(await t.read("a.txt"), text);
  assert.equal(await t.read("b.txt"), "aaaa");
});

Deno.test("search_replace refuses bad arguments, missing files and protected paths", async () => {
  await using t = await testWorkspace({ "a.txt": "x", ".git/HEAD": "ref: refs/heads/main\n" });
  await Deno.symlink(".hel/secret.txt", `${t.project}/f`);
  await Deno.symlink(".git/HEAD", `${t.project}/head`);
  await Deno.symlink(`${t.outside}/outside.txt`, `${t.project}/o`);
  const tool = searchReplaceTool(t.workspace);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ path: "a.txt", search: "", replace: "y" }, /^search must be a non-empty string$/],
    [{ path: "a.txt", replace: "y" }, /^search is required but missing$/],
    [{ path: "a.txt", search: "x" }, /^replace is required but missing$/],
    [{ path: "nope.txt", search: "x", replace: "y" }, /^nope\.txt: no such file or directory$/],
    [{ path: ".hel/secret.txt", search: "canary", replace: "y" }, /protected \.hel folder/],
    [{ path: "f", search: "canary", replace: "y" }, /symbolic link into hel's protected/],
    [{ path: "o", search: "outside", replace: "y" }, /symbolic link to a location outside/],
    [{ path: "../outside/outside.txt", search: "o", replace: "y" }, /outside the working/],
    [{ path: ".git/HEAD", search: "main", replace: "x" }, /is inside git's metadata \(\.git\)/],
    [{ path: "head", search: "main", replace: "x" }, /symbolic link into git's metadata/],
  ];
  for (const [args, expected] of cases) {
    const result = await call(tool, args);
    assert.equal(result.ok, false);
    assert.match(result.text, expected, JSON.stringify(args));
  }
  assert.equal(await t.read(".hel/secret.txt"), "canary-secret\n");
  assert.equal(await Deno.readTextFile(`${t.outside}/outside.txt`), "outside-data\n");
  assert.equal(await t.read(".git/HEAD"), "ref: refs/heads/main\n");
});

Deno.test("search_replace refuses a file over the whole-file limit without loading it", async () => {
  await using t = await testWorkspace({ "big.txt": "" });
  await Deno.truncate(`${t.project}/big.txt`, WHOLE_FILE_MAX_BYTES + 1); // sparse: no disk used
  const result = await call(searchReplaceTool(t.workspace), {
    path: "big.txt",
    search: "a",
    replace: "b",
  });
  assert.equal(result.ok, false);
  assert.equal(
    result.text,
    "big.txt is 33,554,433 bytes, larger than the 32 MiB search_replace loads whole, so nothing " +
      "was changed. Work on it in parts instead: find the place with grep, read around it with " +
      "read_file (start_line, max_lines), and change it with a command in bash, e.g. sed -i " +
      "'s/old/new/' big.txt (or a short script)",
  );
  assert.equal((await Deno.stat(`${t.project}/big.txt`)).size, WHOLE_FILE_MAX_BYTES + 1);
});
