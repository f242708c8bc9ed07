/**
 * Class C of the security issue: a sandboxed command plants a git repository somewhere in the
 * project (a bare layout at the root, a `.git` file naming another folder, a nested `.git`)
 * whose settings make git run a program when the person later runs git there. hel tells the
 * model in the command's result and the person at the end of the run, and later commands
 * cannot change that repository's settings.
 */
import assert from "node:assert/strict";
import { git, hasBwrap } from "../../plugins/tools/testing.ts";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { baseArgs } from "../_hooks.ts";

// deno-lint-ignore no-explicit-any
function toolReplies(messages: any[]): string[] {
  return messages.filter((message) => message.role === "tool").map((message) => message.content);
}

/** Runs hel with one bash command per turn; returns the replies and stderr. */
async function run(project: string, commands: string[]) {
  await using model = scriptedModel([
    ...commands.map((command) => ({ toolCalls: [{ name: "bash", arguments: { command } }] })),
    { text: "done" },
  ]);
  const result = await runHelInProcess([...baseArgs(model), "-i", "go"], { cwd: project });
  assert.equal(model.remaining(), 0, result.stderr);
  return { result, replies: toolReplies(model.requests.at(-1)!.messages) };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The note in the result and the warning at the end both name `line`. */
function assertTold(reply: string, stderr: string, line: string) {
  assert.match(reply, /\[This command created or changed git repositories/, reply);
  assert.ok(reply.includes(`- ${line}`), `${reply}\n--- does not name ---\n${line}`);
  assert.match(stderr, /commands in this run created or changed git repositories/, stderr);
  assert.match(stderr, new RegExp(`^  ${escape(line)}$`, "m"), stderr);
}

Deno.test({
  name: "a bare repository planted at the root of a project without .git is reported and kept",
  ignore: !hasBwrap(),
  async fn() {
    await using project = await tempProject({ "a.txt": "a\n" });
    const { result, replies } = await run(project.project, [
      "git init -q --bare . && git config core.fsmonitor 'touch pwned'",
      "git config core.fsmonitor 'touch again' || echo >> config",
    ]);
    assert.equal(result.code, 0, result.stderr);
    assertTold(
      replies[0]!,
      result.stderr,
      ". (the project folder itself, as a bare repository), created: settings that run " +
        "programs: core.fsmonitor = touch pwned",
    );
    assert.match(replies[1]!, /^error: exit=1\n[^]*config: Read-only file system/);
    assert.match(await project.read("config"), /fsmonitor = touch pwned\n$/);
  },
});

Deno.test({
  name: "a .git file naming another folder with core.hooksPath is reported and kept",
  ignore: !hasBwrap(),
  async fn() {
    await using project = await tempProject({ "docs/a.md": "a\n" });
    const { result, replies } = await run(project.project, [
      "cd docs && git init -q --separate-git-dir=.gd && git config core.hooksPath .hooks",
      "git -C docs config core.hooksPath other",
      "echo 'gitdir: ../elsewhere' > docs/.git",
    ]);
    assert.equal(result.code, 0, result.stderr);
    assertTold(
      replies[0]!,
      result.stderr,
      "docs/.gd (named by docs/.git), created: settings that run programs: " +
        "core.hookspath = .hooks",
    );
    assert.match(replies[1]!, /^error: exit=\d+\n[^]*config/);
    assert.match(replies[2]!, /^error: exit=1\n[^]*docs\/\.git: Read-only file system/);
    assert.match(await project.read("docs/.gd/config"), /hooksPath = \.hooks\n/);
    assert.match(await project.read("docs/.git"), /^gitdir: .*\/docs\/\.gd\n$/);
  },
});

Deno.test({
  name: "a nested repository with a hook is reported, and its hooks and config are kept",
  ignore: !hasBwrap(),
  async fn() {
    await using project = await tempProject({ "vendor/x/lib.js": "x\n" });
    const hook = "vendor/x/.git/hooks/post-checkout";
    const { result, replies } = await run(project.project, [
      `git init -q vendor/x && printf '#!/bin/sh\\ntouch pwned\\n' > ${hook} && chmod +x ${hook}`,
      `echo 'touch more' >> ${hook}`,
      "git -C vendor/x config core.fsmonitor 'touch pwned'",
    ]);
    assert.equal(result.code, 0, result.stderr);
    assertTold(
      replies[0]!,
      result.stderr,
      `vendor/x/.git, created: settings that run programs: hook ${hook}`,
    );
    assert.match(replies[1]!, /^error: exit=1\n[^]*post-checkout: Read-only file system/);
    assert.match(replies[2]!, /^error: exit=\d+\n[^]*config/);
    assert.equal(await project.read(hook), "#!/bin/sh\ntouch pwned\n");
    assert.doesNotMatch(await project.read("vendor/x/.git/config"), /fsmonitor/);
  },
});

Deno.test({
  name: "an existing nested repository's settings, and a file its config includes, are kept",
  ignore: !hasBwrap(),
  async fn() {
    await using project = await tempProject({
      "a.txt": "a\n",
      "shared.gitconfig": "[user]\n\tname = x\n",
    });
    await git(project.project, "init", "-q");
    await git(project.project, "config", "include.path", "../shared.gitconfig");
    await git(project.project, "init", "-q", "vendor/lib");
    const { result, replies } = await run(project.project, [
      "git -C vendor/lib config core.fsmonitor 'touch pwned'",
      "printf '[core]\\n\\tfsmonitor = touch pwned\\n' >> shared.gitconfig",
      "touch vendor/lib/.git/hooks/post-checkout",
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(replies[0]!, /^error: exit=\d+\n[^]*could not write config file/);
    assert.match(replies[1]!, /^error: exit=1\n[^]*shared\.gitconfig: Read-only file system/);
    assert.match(replies[2]!, /^error: exit=1\n[^]*post-checkout': Read-only file system/);
    assert.doesNotMatch(await project.read("vendor/lib/.git/config"), /fsmonitor/);
    assert.equal(await project.read("shared.gitconfig"), "[user]\n\tname = x\n");
    assert.doesNotMatch(result.stderr, /created or changed git repositories/);
  },
});
