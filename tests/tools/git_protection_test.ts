/**
 * The model cannot change the project's git metadata, which git on the user's machine obeys
 * outside the sandbox (`core.fsmonitor` runs at every `git status`, also a shell prompt's; hooks
 * at every commit): the file tools refuse `.git` by any name or link, and inside the sandbox
 * `.git` is read-only, cannot be moved or removed, while git can still read the repository.
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../../kit/mod.ts";
import { git, hasBwrap } from "../../plugins/tools/testing.ts";
import { scriptedModel, type TempProject, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { baseArgs } from "../_hooks.ts";

// deno-lint-ignore no-explicit-any
function toolReplies(messages: any[]): string[] {
  return messages.filter((message) => message.role === "tool").map((message) => message.content);
}

/** A repository with one commit, a pending change, and a link to its .git. */
async function repository(): Promise<TempProject> {
  const project = await tempProject({ "a.txt": "first\n" });
  await git(project.project, "init", "-q", "-b", "main");
  await git(project.project, "add", "a.txt");
  await git(project.project, "commit", "-q", "-m", "first commit");
  await project.write("a.txt", "changed\n");
  await Deno.symlink(".git", `${project.project}/link`);
  return project;
}

/** Every file and folder under `.git`, with a hash of each file's contents. */
async function gitTree(project: TempProject): Promise<Record<string, string>> {
  const tree: Record<string, string> = {};
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      const name = path.slice(project.project.length + 1);
      if (entry.isDirectory) {
        tree[name] = "dir";
        await walk(path);
      } else tree[name] = await sha256Hex(await Deno.readFile(path));
    }
  };
  await walk(`${project.project}/.git`);
  return tree;
}

const FSMONITOR = "[core]\n\tfsmonitor = touch pwned\n";

Deno.test("write_file and search_replace refuse .git by any name or link; read_file reads it", async () => {
  await using project = await repository();
  const before = await gitTree(project);
  const calls: [string, Record<string, unknown>][] = [
    ["write_file", { path: ".git/config", content: FSMONITOR }],
    ["search_replace", { path: ".git/HEAD", search: "main", replace: "evil" }],
    ["write_file", { path: "link/config", content: FSMONITOR }],
    ["write_file", { path: ".GIT/hooks/pre-commit", content: "#!/bin/sh\ntouch pwned\n" }],
    ["write_file", { path: "link/hooks/pre-commit", content: "#!/bin/sh\ntouch pwned\n" }],
    ["read_file", { path: ".git/HEAD" }],
  ];
  await using model = scriptedModel([
    { toolCalls: calls.map(([name, args]) => ({ name, arguments: args })) },
    { text: "done" },
  ]);
  const sandbox = hasBwrap() ? [] : ["--sandbox", "off"];
  const result = await runHelInProcess([...baseArgs(model), ...sandbox, "-i", "go"], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(model.remaining(), 0);
  const replies = toolReplies(model.requests.at(-1)!.messages);
  assert.equal(replies.length, calls.length);
  const direct = (path: string) =>
    `error: ${path}: refused because it is inside git's metadata (.git). git runs programs ` +
    "named there (hooks, core.fsmonitor) on the user's machine, outside the sandbox, so file " +
    "tools never change it; reading it is allowed. To change the repository, ";
  assert.ok(replies[0]!.startsWith(direct(".git/config")), replies[0]);
  assert.ok(replies[1]!.startsWith(direct(".git/HEAD")), replies[1]);
  assert.match(
    replies[2]!,
    /^error: link\/config: refused because it resolves through a symbolic link into git's metadata/,
  );
  assert.ok(replies[3]!.startsWith(direct(".GIT/hooks/pre-commit")), replies[3]);
  assert.match(
    replies[4]!,
    /^error: link\/hooks\/pre-commit: refused because it resolves through a symbolic link/,
  );
  const advice = hasBwrap()
    ? "ask the user to run the git commands that change the repository"
    : "run git commands with bash instead (git add, git commit)";
  for (const reply of replies.slice(0, 5)) assert.ok(reply.endsWith(advice), reply);
  assert.equal(replies[5], "ref: refs/heads/main\n");
  assert.deepEqual(await gitTree(project), before);
});

Deno.test({
  name: "bash in the sandbox cannot write, move or remove .git, and git status and log work",
  ignore: !hasBwrap(),
  async fn() {
    await using project = await repository();
    const before = await gitTree(project);
    const commands = [
      "echo '[core] fsmonitor = touch pwned' >> .git/config",
      "printf '#!/bin/sh\\ntouch pwned\\n' > .git/hooks/pre-commit",
      "rm -rf .git",
      "mv .git g",
      "git -c user.name=m -c user.email=m@m commit -qam sneaky",
      "git status --short; git log --format=%s; git diff --stat",
    ];
    await using model = scriptedModel([
      { toolCalls: commands.map((command) => ({ name: "bash", arguments: { command } })) },
      { text: "done" },
    ]);
    const result = await runHelInProcess([...baseArgs(model), "-i", "go"], {
      cwd: project.project,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(model.remaining(), 0);
    const replies = toolReplies(model.requests.at(-1)!.messages);
    assert.match(replies[0]!, /^error: exit=1\n.*\.git\/config: Read-only file system\n$/);
    assert.match(
      replies[1]!,
      /^error: exit=1\n.*\.git\/hooks\/pre-commit: Read-only file system\n$/,
    );
    assert.match(replies[2]!, /^error: exit=1\n(rm: cannot remove '\.git[^\n]*\n)+$/);
    assert.match(replies[2]!, /Read-only file system/);
    assert.equal(
      replies[3],
      "error: exit=1\nmv: cannot move '.git' to 'g': Device or resource busy\n",
    );
    assert.match(
      replies[4]!,
      /^error: exit=128\nfatal: Unable to create '.*\.git\/index\.lock': Read-only/,
    );
    assert.equal(
      replies[5],
      "exit=0\n M a.txt\n?? link\nfirst commit\n a.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n",
    );
    assert.deepEqual(await gitTree(project), before);
    await assert.rejects(Deno.stat(`${project.project}/g`));
    await assert.rejects(Deno.stat(`${project.project}/pwned`));
  },
});

Deno.test({
  name: "--allow-git-writes warns, and lets commands commit; the file tools still refuse .git",
  ignore: !hasBwrap(),
  async fn() {
    await using project = await repository();
    const commit =
      "git add a.txt && git -c user.name=m -c user.email=m@m commit -qm 'by the agent'";
    await using model = scriptedModel([
      {
        toolCalls: [
          { name: "bash", arguments: { command: commit } },
          { name: "write_file", arguments: { path: ".git/config", content: FSMONITOR } },
        ],
      },
      { text: "done" },
    ]);
    const result = await runHelInProcess([...baseArgs(model), "--allow-git-writes", "-i", "go"], {
      cwd: project.project,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(model.remaining(), 0);
    assert.match(
      result.stderr,
      /^hel: warning: --allow-git-writes: sandboxed commands can change \.git; a command could set a program \(core\.fsmonitor, a hook\) that git then runs outside the sandbox/m,
    );
    const replies = toolReplies(model.requests.at(-1)!.messages);
    assert.equal(replies[0], "exit=0\n");
    assert.match(
      replies[1]!,
      /^error: \.git\/config: refused .*run git commands with bash instead/,
    );
    assert.equal(await git(project.project, "log", "-1", "--format=%s"), "by the agent\n");
    assert.doesNotMatch(await project.read(".git/config"), /fsmonitor/);
  },
});

Deno.test({
  name: "a .git created by a command is reported to the user and is read-only afterwards",
  ignore: !hasBwrap(),
  async fn() {
    await using project = await tempProject({ "a.txt": "a\n" });
    await using model = scriptedModel([
      { toolCalls: [{ name: "bash", arguments: { command: "git init -q" } }] },
      { toolCalls: [{ name: "bash", arguments: { command: "touch .git/hooks/pre-commit" } }] },
      { text: "done" },
    ]);
    const result = await runHelInProcess([...baseArgs(model), "-i", "go"], {
      cwd: project.project,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(model.remaining(), 0);
    assert.match(
      result.stderr,
      new RegExp(
        "^hel: warning: commands in this run created or changed git repositories in " +
          `${project.project}; git runs the programs their settings name, outside the ` +
          "sandbox, when you or your shell prompt run git in them \\(or in a folder under " +
          "them\\), so check these before you run git there:\n  \\.git, created: no setting that runs a program yet$",
        "m",
      ),
    );
    const replies = toolReplies(model.requests.at(-1)!.messages);
    assert.match(replies[0]!, /^exit=0\n\n\[This command created or changed git repositories/);
    assert.match(replies[0]!, /\n- \.git, created: no setting that runs a program yet\n/);
    assert.match(
      replies[1]!,
      /^error: exit=1\ntouch: cannot touch '\.git\/hooks\/pre-commit': Read-only/,
    );
    await assert.rejects(Deno.stat(`${project.project}/.git/hooks/pre-commit`));
  },
});

Deno.test({
  name: "a git folder named by a .git file a command created is refused to the file tools too",
  ignore: !hasBwrap(),
  async fn() {
    await using project = await tempProject({ "a.txt": "a\n" });
    await using model = scriptedModel([
      {
        toolCalls: [{
          name: "bash",
          arguments: { command: "git init -q --separate-git-dir=gd . && cat .git" },
        }],
      },
      {
        toolCalls: [{ name: "write_file", arguments: { path: "gd/config", content: FSMONITOR } }],
      },
      { text: "done" },
    ]);
    const result = await runHelInProcess([...baseArgs(model), "-i", "go"], {
      cwd: project.project,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(model.remaining(), 0);
    const replies = toolReplies(model.requests.at(-1)!.messages);
    assert.match(replies[0]!, /^exit=0\ngitdir: .*\/gd\n/);
    assert.match(replies[1]!, /^error: gd\/config: refused because it is inside git's metadata/);
    assert.doesNotMatch(await project.read("gd/config"), /fsmonitor/);
  },
});
