import assert from "node:assert/strict";
import { isWithin } from "../../../kit/mod.ts";
import { openVerified, resolveInWorkspace } from "./confinement.ts";
import { CursorStore } from "../files/read_cursors.ts";
import { readFileTool } from "../files/read_file.ts";
import { searchReplaceTool } from "../files/search_replace.ts";
import { call, testWorkspace } from "../testing.ts";
import { writeFileTool } from "../files/write_file.ts";

Deno.test("paths inside the working directory resolve to their canonical form", async () => {
  await using t = await testWorkspace({ "src/a.ts": "x" });
  for (const input of ["src/a.ts", `${t.project}/src/a.ts`, "./src/../src/a.ts", "src//a.ts"]) {
    const resolved = await resolveInWorkspace(t.workspace, input);
    assert.deepEqual(resolved, { ok: true, path: `${t.project}/src/a.ts`, exists: true }, input);
  }
});

Deno.test("relative escapes, absolute outside paths and prefix look-alikes are refused", async () => {
  await using t = await testWorkspace();
  await Deno.mkdir(`${t.project}-evil`);
  try {
    const inputs = [
      "../outside/outside.txt",
      "a/../../outside/outside.txt",
      "./.././outside/outside.txt",
      "a/b/../../../../../../etc/passwd",
      "/etc/passwd",
      `${t.outside}/outside.txt`,
      `${t.project}-evil/x`,
      `${t.project}/../project-evil`,
      "/proc/self/root/etc/passwd",
    ];
    for (const input of inputs) {
      const resolved = await resolveInWorkspace(t.workspace, input);
      assert.equal(resolved.ok, false, input);
      assert.match(
        !resolved.ok ? resolved.text : "",
        new RegExp(`outside the working directory ${t.project};`),
        input,
      );
    }
  } finally {
    await Deno.remove(`${t.project}-evil`);
  }
});

Deno.test("any .hel component is refused in every letter case, existing or not", async () => {
  await using t = await testWorkspace();
  const inputs = [
    ".hel/secret.txt",
    ".HEL/secret.txt",
    ".Hel/x",
    "./.hel/secret.txt",
    "sub/../.hel/secret.txt",
    ".hel/./secret.txt",
    ".hel//secret.txt",
    "sub/.hel/x",
    ".hel",
    `${t.project}/.hel/hooks.json`,
  ];
  for (const input of inputs) {
    for (const create of [false, true]) {
      const resolved = await resolveInWorkspace(t.workspace, input, { create });
      assert.equal(resolved.ok, false, input);
      assert.match(!resolved.ok ? resolved.text : "", /protected \.hel folder/, input);
    }
  }
});

Deno.test("symlinks are resolved before the check and their outside target is not named", async () => {
  await using t = await testWorkspace();
  await Deno.symlink(".hel", `${t.project}/l`);
  await Deno.symlink(".hel/secret.txt", `${t.project}/f`);
  await Deno.symlink(t.outside, `${t.project}/out`);
  await Deno.symlink(`${t.outside}/outside.txt`, `${t.project}/k`);
  await Deno.mkdir(`${t.project}/a`);
  await Deno.symlink("../..", `${t.project}/a/b`);
  for (const input of ["l/secret.txt", "f", "l"]) {
    const resolved = await resolveInWorkspace(t.workspace, input, { allowSpill: true });
    assert.equal(resolved.ok, false, input);
    assert.match(
      !resolved.ok ? resolved.text : "",
      /resolves through a symbolic link into hel's protected \.hel folder/,
    );
  }
  for (const input of ["out/outside.txt", "k", "a/b/outside/outside.txt"]) {
    const resolved = await resolveInWorkspace(t.workspace, input);
    assert.equal(resolved.ok, false, input);
    const text = !resolved.ok ? resolved.text : "";
    assert.match(text, /resolves through a symbolic link to a location outside/);
    assert.ok(!text.includes(t.outside), `the target leaked: ${text}`);
  }
});

Deno.test("a file to be created is checked through the realPath of its parent", async () => {
  await using t = await testWorkspace();
  await Deno.symlink(t.outside, `${t.project}/linkdir`);
  await Deno.symlink(".hel", `${t.project}/hel-link`);
  await Deno.symlink(".hel/new.json", `${t.project}/dangling`);
  const cases: [string, RegExp][] = [
    ["linkdir/new.txt", /resolves through a symbolic link to a location outside/],
    ["hel-link/hooks.json", /resolves through a symbolic link into hel's protected/],
    ["dangling", /symbolic link whose target does not exist/],
    ["missing/new.txt", /the parent folder does not exist/],
  ];
  for (const [input, expected] of cases) {
    const resolved = await resolveInWorkspace(t.workspace, input, { create: true });
    assert.equal(resolved.ok, false, input);
    assert.match(!resolved.ok ? resolved.text : "", expected, input);
  }
  const fresh = await resolveInWorkspace(t.workspace, "new.txt", { create: true });
  assert.deepEqual(fresh, { ok: true, path: `${t.project}/new.txt`, exists: false });
});

Deno.test("only the current session's spill folder is readable, and only when allowed", async () => {
  await using t = await testWorkspace();
  await t.write(`${t.workspace.spillDir}/r.txt`, "spilled");
  await t.write(`${t.otherSpillDir}/r.txt`, "other");
  const mine = `${t.workspace.spillDir}/r.txt`;
  assert.deepEqual(await resolveInWorkspace(t.workspace, mine, { allowSpill: true }), {
    ok: true,
    path: mine,
    exists: true,
  });
  const relative = ".hel/sessions/current/spill/r.txt";
  assert.equal((await resolveInWorkspace(t.workspace, relative, { allowSpill: true })).ok, true);
  for (const [input, allowSpill] of [[mine, false], [`${t.otherSpillDir}/r.txt`, true]] as const) {
    const resolved = await resolveInWorkspace(t.workspace, input, { allowSpill });
    assert.equal(resolved.ok, false, input);
    assert.match(!resolved.ok ? resolved.text : "", /protected \.hel folder/);
  }
  // Climbing out of the spill folder by name is judged on the normalized path.
  const climbed = await resolveInWorkspace(
    t.workspace,
    `${t.workspace.spillDir}/../../other/spill/r.txt`,
    { allowSpill: true },
  );
  assert.equal(climbed.ok, false);
});

Deno.test("bad path strings and link loops get clear errors", async () => {
  await using t = await testWorkspace();
  await Deno.symlink("loop2", `${t.project}/loop1`);
  await Deno.symlink("loop1", `${t.project}/loop2`);
  assert.deepEqual(await resolveInWorkspace(t.workspace, "a\0b"), {
    ok: false,
    text: "path contains a NUL character; give a plain file path",
  });
  const loop = await resolveInWorkspace(t.workspace, "loop1");
  assert.match(!loop.ok ? loop.text : "", /^loop1: cannot resolve the path/);
  assert.deepEqual(await resolveInWorkspace(t.workspace, "nope.txt"), {
    ok: false,
    text: "nope.txt: no such file or directory",
  });
});

Deno.test("containment compares path segments, not string prefixes", () => {
  assert.equal(isWithin("/w/proj", "/w/proj"), true);
  assert.equal(isWithin("/w/proj", "/w/proj/a/b"), true);
  assert.equal(isWithin("/w/proj", "/w/proj-evil/x"), false);
  assert.equal(isWithin("/w/proj", "/w/project2"), false);
  assert.equal(isWithin("/w/proj", "/w/proj/..hidden"), true);
  assert.equal(isWithin("/w/proj", "/w"), false);
});

Deno.test("file tools refuse a hard link to a file in .hel, and allow other hard links", async () => {
  await using t = await testWorkspace({ "plain.txt": "plain\n" });
  await Deno.link(`${t.project}/.hel/secret.txt`, `${t.project}/innocent.txt`);
  await Deno.link(`${t.project}/plain.txt`, `${t.project}/plain-too.txt`);
  const read = readFileTool({ workspace: t.workspace, cursors: new CursorStore() });
  const refusal = "innocent.txt: refused because it is a hard link to a file in hel's protected " +
    ".hel folder; file tools cannot read or change it";
  assert.deepEqual(await call(read, { path: "innocent.txt" }), { ok: false, text: refusal });
  assert.deepEqual(
    await call(writeFileTool(t.workspace), { path: "innocent.txt", content: "pwned" }),
    { ok: false, text: refusal },
  );
  assert.deepEqual(
    await call(searchReplaceTool(t.workspace), {
      path: "innocent.txt",
      search: "canary",
      replace: "pwned",
    }),
    { ok: false, text: refusal },
  );
  assert.equal(await t.read(".hel/secret.txt"), "canary-secret\n");
  assert.deepEqual(await call(read, { path: "plain-too.txt" }), { ok: true, text: "plain\n" });
});

Deno.test("writes anywhere under .git, in any letter case, are refused; reads are not", async () => {
  await using t = await testWorkspace({ ".git/config": "[core]\n", "sub/.git/HEAD": "ref\n" });
  const inputs = [
    ".git/config",
    ".git/hooks/pre-commit",
    ".GIT/config",
    ".Git/new-file",
    "./sub/../.git/config",
    "sub/.git/HEAD",
    "other/.git/config",
    ".git",
    `${t.project}/.git/config`,
  ];
  for (const input of inputs) {
    for (const create of [false, true]) {
      const resolved = await resolveInWorkspace(t.workspace, input, { create, write: true });
      assert.equal(resolved.ok, false, input);
      assert.equal(
        !resolved.ok && resolved.text,
        `${input}: refused because it is inside git's metadata (.git). git runs programs ` +
          "named there (hooks, core.fsmonitor) on the user's machine, outside the sandbox, so " +
          "file tools never change it; reading it is allowed. To change the repository, ask " +
          "the user to run the git commands that change the repository",
        input,
      );
    }
  }
  assert.deepEqual(await resolveInWorkspace(t.workspace, ".git/config"), {
    ok: true,
    path: `${t.project}/.git/config`,
    exists: true,
  });
  // A name that only contains .git is an ordinary file.
  const ignore = await resolveInWorkspace(t.workspace, ".gitignore", { create: true, write: true });
  assert.equal(ignore.ok, true);
});

Deno.test("symlinks into .git and git folders a .git file names are refused for writes", async () => {
  await using t = await testWorkspace({
    ".git/config": "[core]\n",
    ".git/hooks/README": "hooks\n",
    ".bare/config": "[core]\n",
  });
  await Deno.symlink(".git", `${t.project}/link`);
  await Deno.symlink(".git/config", `${t.project}/config-link`);
  await Deno.symlink("link", `${t.project}/link2`);
  const workspace = { ...t.workspace, gitDirs: () => Promise.resolve([`${t.project}/.bare`]) };
  for (const input of ["link/config", "link/hooks/pre-commit", "config-link", "link2/config"]) {
    const create = input.endsWith("pre-commit");
    const resolved = await resolveInWorkspace(workspace, input, { create, write: true });
    assert.equal(resolved.ok, false, input);
    assert.match(
      !resolved.ok ? resolved.text : "",
      /^[^:]+: refused because it resolves through a symbolic link into git's metadata \(\.git\)/,
      input,
    );
  }
  const named = await resolveInWorkspace(workspace, ".bare/config", { write: true });
  assert.match(!named.ok ? named.text : "", /is inside git's metadata \(\.git\)/);
  // With bash allowed to change .git, the advice points there instead.
  const advised = await resolveInWorkspace(
    { ...workspace, gitThroughBash: true },
    ".git/config",
    { write: true },
  );
  assert.match(
    !advised.ok ? advised.text : "",
    /To change the repository, run git commands with bash instead \(git add, git commit\)$/,
  );
  assert.equal((await resolveInWorkspace(workspace, "link/config")).ok, true);
});

Deno.test("a folder swapped for a link after the check: the open is refused and leaves no file there", async () => {
  await using t = await testWorkspace();
  // As if a racing process had replaced the checked folders with links after resolveInWorkspace.
  await Deno.symlink(".hel", `${t.project}/dir`);
  await Deno.symlink(t.outside, `${t.project}/out`);
  for (
    const [shown, landed] of [["dir/new.txt", `${t.project}/.hel`], ["out/new.txt", t.outside]]
  ) {
    const opened = await openVerified(t.workspace, `${t.project}/${shown}`, shown!, {
      write: true,
      createNew: true,
    });
    assert.deepEqual(opened, {
      ok: false,
      text: `${shown}: the file changed while it was being opened; try again`,
    });
    await assert.rejects(Deno.lstat(`${landed}/new.txt`), Deno.errors.NotFound, shown);
  }
  // An existing file reached through the swap is refused before anything is truncated.
  const existing = await openVerified(
    t.workspace,
    `${t.project}/dir/secret.txt`,
    "dir/secret.txt",
    {
      write: true,
    },
  );
  assert.equal(existing.ok, false);
  assert.equal(await t.read(".hel/secret.txt"), "canary-secret\n");
});

Deno.test(".hel and .git spellings that folding file systems take for them are refused too", async () => {
  await using t = await testWorkspace();
  const hel = [
    ".hel\u200c/x",
    ".HEL./x",
    ".hel /x",
    "\uff0ehel/x",
    ".\uff28\uff25\uff2c/x",
    ".h\u00adel/x",
  ];
  for (const input of hel) {
    const resolved = await resolveInWorkspace(t.workspace, input, { create: true });
    assert.match(
      !resolved.ok ? resolved.text : "",
      /protected \.hel folder/,
      JSON.stringify(input),
    );
  }
  await Deno.mkdir(`${t.project}/.git\u200b`);
  for (const input of [".git\u200b/config", ".GIT./config"]) {
    const resolved = await resolveInWorkspace(t.workspace, input, { create: true, write: true });
    assert.match(!resolved.ok ? resolved.text : "", /git's metadata/, JSON.stringify(input));
  }
  // Ordinary names that merely contain the letters stay usable.
  for (const input of ["hel.txt", ".helper", "a.hel", "..hel", ".hel-notes"]) {
    const resolved = await resolveInWorkspace(t.workspace, input, { create: true, write: true });
    assert.equal(resolved.ok, true, input);
  }
});
