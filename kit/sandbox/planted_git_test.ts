import assert from "node:assert/strict";
import { describeChange, GitWatch } from "./planted_git.ts";
import { git, testWorkspace } from "../../plugins/tools/testing.ts";

const env = () => ({ PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" });

Deno.test("repositories there at the start are not reported, and their settings are kept", async () => {
  await using t = await testWorkspace({
    "shared.cfg": "[user]\n\tname = x\n",
    "vendor/x/.husky/pre-commit": "",
  });
  await git(t.project, "init", "-q");
  await git(t.project, "init", "-q", "vendor/x");
  await git(`${t.project}/vendor/x`, "config", "core.hooksPath", ".husky");
  await git(`${t.project}/vendor/x`, "config", "include.path", "../../../shared.cfg");
  const watch = new GitWatch({ project: t.project, skip: [`${t.project}/.hel`], env: env() });
  const relative = (await watch.readOnly()).map((path) => path.slice(t.project.length + 1));
  assert.deepEqual(relative.sort(), [
    ".git/config",
    ".git/hooks",
    "shared.cfg",
    "vendor/x/.git/config",
    "vendor/x/.git/hooks",
    "vendor/x/.husky",
  ]);
  assert.deepEqual(await watch.check(), []);
  // A change to a file the configuration includes is a change to the settings.
  await t.write("shared.cfg", "[core]\n\tfsmonitor = touch pwned\n");
  assert.deepEqual(await watch.check(), [{
    kind: "changed",
    path: "vendor/x/.git",
    namedBy: [],
    programs: [
      "core.hookspath = .husky",
      "include.path = ../../../shared.cfg",
      "core.fsmonitor = touch pwned (in shared.cfg)",
      "hook vendor/x/.husky/pre-commit",
    ],
  }]);
});

Deno.test("a repository planted, changed, removed and planted again is told each time", async () => {
  await using t = await testWorkspace({ "docs/a.md": "a\n" });
  const watch = new GitWatch({ project: t.project, env: env() });
  assert.deepEqual(await watch.check(), []);
  await git(`${t.project}/docs`, "init", "-q", "--separate-git-dir=.gd");
  await git(`${t.project}/docs`, "config", "core.hooksPath", "hooks");
  const created = {
    kind: "created",
    path: "docs/.gd",
    namedBy: ["docs/.git"],
    programs: ["core.hookspath = hooks"],
  };
  assert.deepEqual(await watch.check(), [created]);
  assert.deepEqual(await watch.check(), []);
  // Written in place, so only the file's own times change.
  const config = `${t.project}/docs/.gd/config`;
  const file = await Deno.open(config, { append: true });
  await file.write(new TextEncoder().encode('[filter "x"]\n\tsmudge = touch pwned\n'));
  file.close();
  assert.deepEqual(await watch.check(), [{
    ...created,
    kind: "changed",
    programs: ["core.hookspath = hooks", "filter.x.smudge = touch pwned"],
  }]);
  await t.write("docs/hooks/post-checkout", "#!/bin/sh\n");
  assert.deepEqual((await watch.check())[0]?.programs.at(-1), "hook docs/hooks/post-checkout");
  await Deno.remove(`${t.project}/docs/.gd`, { recursive: true });
  assert.deepEqual(await watch.check(), []);
  await git(t.project, "init", "-q", "--bare", ".");
  const bare = await watch.check();
  assert.deepEqual(bare, [{ kind: "created", path: ".", namedBy: [], programs: [] }]);
  assert.equal(
    describeChange(bare[0]!),
    ". (the project folder itself, as a bare repository), created: no setting that runs a " +
      "program yet",
  );
  assert.equal(watch.changes.length, 4);
});

Deno.test("a configuration git cannot read, or not a file, is reported unread", async () => {
  await using t = await testWorkspace();
  const watch = new GitWatch({ project: t.project, env: env() });
  await git(t.project, "init", "-q", "a");
  await t.write("a/.git/config", "[core\n");
  await git(t.project, "init", "-q", "b");
  await Deno.remove(`${t.project}/b/.git/config`);
  await Deno.symlink("/dev/zero", `${t.project}/b/.git/config`);
  const found = await watch.check();
  assert.deepEqual(found.map((change) => [change.path, change.programs]).sort(), [
    ["a/.git", ["a/.git/config: git cannot read it (fatal: bad config line 1)"]],
    ["b/.git", ["b/.git/config: not read (not a regular file); check it"]],
  ]);
});

Deno.test("settings that are links are bound where they lead, and only inside the project", async () => {
  // A hooks path into hel's own folder is never bound: that would uncover it in the sandbox.
  await using t = await testWorkspace({ "notes.cfg": "[core]\n\thooksPath = ../.hel\n" });
  await t.write(`${t.outside}/secret`, "key\n");
  const watch = new GitWatch({ project: t.project, env: env() });
  await git(t.project, "init", "-q", "in");
  await Deno.remove(`${t.project}/in/.git/config`);
  await Deno.symlink("../../notes.cfg", `${t.project}/in/.git/config`);
  await git(t.project, "init", "-q", "out");
  await Deno.remove(`${t.project}/out/.git/config`);
  // bwrap follows links at both ends of a bind: bound as is, the secret would show inside.
  await Deno.symlink(`${t.outside}/secret`, `${t.project}/out/.git/config`);
  assert.equal((await watch.check()).length, 2);
  const relative = (await watch.readOnly()).map((path) => path.slice(t.project.length + 1));
  assert.deepEqual(relative, ["in/.git/hooks", "notes.cfg", "out/.git/hooks"]);
});

Deno.test("a .git file naming a folder not there yet counts once the folder is there", async () => {
  await using t = await testWorkspace({ "docs/.git": "gitdir: ../later\n" });
  const watch = new GitWatch({ project: t.project, env: env() });
  assert.deepEqual(await watch.check(), []);
  await git(t.project, "init", "-q", "--bare", "later");
  assert.deepEqual(await watch.check(), [
    { kind: "created", path: "later", namedBy: ["docs/.git"], programs: [] },
  ]);
});
