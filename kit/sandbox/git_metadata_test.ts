import assert from "node:assert/strict";
import { gitMetadata } from "./git_metadata.ts";
import { git, testWorkspace } from "../../plugins/tools/testing.ts";

const COMMIT = "0123456789abcdef0123456789abcdef01234567";

Deno.test("without .git there is nothing to protect; a .git folder is protected", async () => {
  await using t = await testWorkspace({ "a.txt": "a\n" });
  assert.deepEqual(await gitMetadata(t.project), { readOnly: [], namedGitDirs: [] });
  await git(t.project, "init", "-q");
  assert.deepEqual(await gitMetadata(t.project), {
    readOnly: [`${t.project}/.git`],
    namedGitDirs: [],
  });
});

Deno.test("a .git file or link protects the git folder it names when that is inside", async () => {
  await using t = await testWorkspace();
  // `--separate-git-dir` inside the project: .git is a file naming .bare.
  await git(t.project, "init", "-q", "--separate-git-dir", `${t.project}/.bare`);
  assert.match(await t.read(".git"), /^gitdir: /);
  assert.deepEqual(await gitMetadata(t.project), {
    readOnly: [`${t.project}/.git`, `${t.project}/.bare`],
    namedGitDirs: [`${t.project}/.bare`],
  });
  // A linked worktree whose repository lies outside the project: only its .git file is inside.
  await git(t.outside, "init", "-q", "main");
  await git(`${t.outside}/main`, "commit", "-q", "--allow-empty", "-m", "first");
  await git(`${t.outside}/main`, "worktree", "add", "-q", `${t.project}/wt`);
  assert.deepEqual(await gitMetadata(`${t.project}/wt`), {
    readOnly: [`${t.project}/wt/.git`],
    namedGitDirs: [],
  });
  // A symbolic link .git: what it points to is kept.
  await Deno.mkdir(`${t.project}/linked`);
  await Deno.rename(`${t.project}/.bare`, `${t.project}/linked/data`);
  await Deno.symlink("data", `${t.project}/linked/.git`);
  assert.deepEqual(await gitMetadata(`${t.project}/linked`), {
    readOnly: [`${t.project}/linked/data`],
    namedGitDirs: [`${t.project}/linked/data`],
  });
});

Deno.test("submodules in the index: their .git, or their folder when not checked out", async () => {
  await using t = await testWorkspace();
  await git(t.project, "init", "-q");
  for (const path of ["absorbed", "embedded", "empty", "gone", ".hel/x"]) {
    await git(t.project, "update-index", "--add", "--cacheinfo", `160000,${COMMIT},${path}`);
  }
  // Checked out the usual way: .git is a file naming the folder under .git/modules.
  await Deno.mkdir(`${t.project}/.git/modules/absorbed`, { recursive: true });
  await t.write("absorbed/.git", "gitdir: ../.git/modules/absorbed\n");
  // An older layout, or a repository added with `git add`: a .git folder of its own.
  await git(t.project, "init", "-q", "embedded");
  await Deno.mkdir(`${t.project}/empty`);
  await Deno.mkdir(`${t.project}/.hel/x`);
  await Deno.symlink(t.outside, `${t.project}/outside-link`);
  await git(t.project, "update-index", "--add", "--cacheinfo", `160000,${COMMIT},outside-link`);
  assert.deepEqual(await gitMetadata(t.project), {
    readOnly: [
      `${t.project}/.git`,
      `${t.project}/absorbed/.git`,
      `${t.project}/embedded/.git`,
      `${t.project}/empty`,
    ],
    namedGitDirs: [],
  });
});

Deno.test("hel run in a subfolder of a repository protects the submodules inside it", async () => {
  await using t = await testWorkspace();
  await git(t.project, "init", "-q");
  for (const path of ["pkg/vendor/lib", "pkg/empty", "elsewhere/lib"]) {
    await git(t.project, "update-index", "--add", "--cacheinfo", `160000,${COMMIT},${path}`);
  }
  await git(t.project, "init", "-q", "pkg/vendor/lib");
  await git(t.project, "init", "-q", "elsewhere/lib");
  await Deno.mkdir(`${t.project}/pkg/empty`);
  // The repository's own .git lies outside the subfolder: read-only in the sandbox already.
  assert.deepEqual(await gitMetadata(`${t.project}/pkg`), {
    readOnly: [`${t.project}/pkg/empty`, `${t.project}/pkg/vendor/lib/.git`],
    namedGitDirs: [],
  });
});

Deno.test("the protection follows the index: a submodule added or removed counts at once", async () => {
  await using t = await testWorkspace();
  await git(t.project, "init", "-q");
  await git(t.project, "init", "-q", "lib");
  const submodules = async () =>
    (await gitMetadata(t.project)).readOnly.filter((path) => path !== `${t.project}/.git`);
  assert.deepEqual(await submodules(), []);
  await git(t.project, "update-index", "--add", "--cacheinfo", `160000,${COMMIT},lib`);
  assert.deepEqual(await submodules(), [`${t.project}/lib/.git`]);
  await git(t.project, "update-index", "--force-remove", "lib");
  assert.deepEqual(await submodules(), []);
});
