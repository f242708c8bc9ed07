import assert from "node:assert/strict";
import { call, testWorkspace } from "../testing.ts";
import { writeFileTool } from "./write_file.ts";

Deno.test("write_file creates and overwrites files and counts UTF-8 bytes", async () => {
  await using t = await testWorkspace({ "old.txt": "a much longer old text\n" });
  const tool = writeFileTool(t.workspace);
  assert.deepEqual(await call(tool, { path: "new.txt", content: "hi" }), {
    ok: true,
    text: "wrote 2 bytes to new.txt",
  });
  assert.equal(await t.read("new.txt"), "hi");
  assert.deepEqual(await call(tool, { path: "old.txt", content: "짧다" }), {
    ok: true,
    text: "wrote 6 bytes to old.txt",
  });
  assert.equal(await t.read("old.txt"), "짧다");
  assert.deepEqual(await call(tool, { path: `${t.project}/empty.txt`, content: "" }), {
    ok: true,
    text: `wrote 0 bytes to ${t.project}/empty.txt`,
  });
});

Deno.test("write_file writes through a symlink that stays inside the working directory", async () => {
  await using t = await testWorkspace({ "AGENTS.md": "old" });
  await Deno.symlink("AGENTS.md", `${t.project}/CLAUDE.md`);
  const tool = writeFileTool(t.workspace);
  assert.equal((await call(tool, { path: "CLAUDE.md", content: "new" })).ok, true);
  assert.equal(await t.read("AGENTS.md"), "new");
  assert.equal((await Deno.lstat(`${t.project}/CLAUDE.md`)).isSymlink, true);
});

Deno.test("write_file refuses escapes, .hel, symlinked parents and missing folders", async () => {
  await using t = await testWorkspace();
  await Deno.symlink(t.outside, `${t.project}/linkdir`);
  await Deno.symlink(`${t.outside}/outside.txt`, `${t.project}/leaf`);
  await Deno.symlink(".hel", `${t.project}/hel-link`);
  await Deno.mkdir(`${t.project}/folder`);
  const tool = writeFileTool(t.workspace);
  const cases: [string, RegExp][] = [
    ["../outside/outside.txt", /^\.\.\/outside\/outside\.txt: refused because it is outside/],
    [`${t.outside}/new.txt`, /refused because it is outside the working directory/],
    ["linkdir/new.txt", /resolves through a symbolic link to a location outside/],
    ["linkdir/outside.txt", /resolves through a symbolic link to a location outside/],
    ["leaf", /resolves through a symbolic link to a location outside/],
    [".hel/hooks.json", /protected \.hel folder/],
    [".HEL/hooks.json", /protected \.hel folder/],
    ["hel-link/hooks.json", /resolves through a symbolic link into hel's protected \.hel/],
    ["nested/dir/new.txt", /^nested\/dir\/new\.txt: the parent folder does not exist/],
    ["folder", /^folder is a directory; give a file path$/],
  ];
  for (const [path, expected] of cases) {
    const result = await call(tool, { path, content: "pwned" });
    assert.equal(result.ok, false, path);
    assert.match(result.text, expected, path);
    assert.ok(!result.text.includes(`${t.outside}/`) || path.startsWith(t.outside), result.text);
  }
  assert.equal(await Deno.readTextFile(`${t.outside}/outside.txt`), "outside-data\n");
  assert.deepEqual([...Deno.readDirSync(t.outside)].map((e) => e.name), ["outside.txt"]);
  assert.equal(await t.read(".hel/secret.txt"), "canary-secret\n");
  await assert.rejects(Deno.stat(`${t.project}/.hel/hooks.json`));
  await assert.rejects(Deno.stat(`${t.project}/.HEL`));
});

Deno.test("write_file refuses .git, through any name or link, and leaves it as it was", async () => {
  await using t = await testWorkspace({ ".git/config": "[core]\n", ".git/hooks/README": "" });
  await Deno.symlink(".git", `${t.project}/link`);
  const tool = writeFileTool(t.workspace);
  for (const path of [".git/config", ".GIT/config", "link/config", ".git/hooks/pre-commit"]) {
    const result = await call(tool, { path, content: "[core]\n\tfsmonitor = touch pwned\n" });
    assert.equal(result.ok, false, path);
    assert.match(result.text, /git's metadata \(\.git\)\. git runs programs named there/, path);
    assert.match(result.text, /ask the user to run the git commands/, path);
  }
  assert.equal(await t.read(".git/config"), "[core]\n");
  assert.deepEqual([...Deno.readDirSync(`${t.project}/.git/hooks`)].map((e) => e.name), [
    "README",
  ]);
});

Deno.test("write_file checks its arguments", async () => {
  await using t = await testWorkspace();
  const tool = writeFileTool(t.workspace);
  const cases: [Record<string, unknown>, string][] = [
    [{ content: "x" }, "path is required but missing"],
    [{ path: "a.txt" }, "content is required but missing"],
    [{ path: "a.txt", content: 5 }, "content must be a string, not integer"],
    [{ path: "", content: "x" }, "path must be a non-empty string"],
    [
      { path: "newdir/", content: "x" },
      'newdir/: the path ends in "/" and so names a folder; write_file writes a file, so give ' +
      "the file's path (its folder must exist already)",
    ],
  ];
  for (const [args, text] of cases) {
    assert.deepEqual(await call(tool, args), { ok: false, text });
  }
  // Nothing was created in place of the folder that was meant.
  await assert.rejects(Deno.lstat(`${t.project}/newdir`));
});
