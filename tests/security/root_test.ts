/**
 * Issue 11, class H: running as root. A sandboxed command, as root, left a set-uid-root shell
 * in the project (`cp /bin/sh x; chmod u+s x`). hel now warns at start when it runs as root,
 * and sandboxed programs cannot make set-uid or set-gid files, however they try; nor can they
 * change the kernel's settings, which root owns.
 */
import assert from "node:assert/strict";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const asRoot = Deno.uid() === 0;

/** Runs hel with these bash commands; returns stderr and the replies the model got. */
async function runCommands(commands: string[], check: (project: string) => Promise<void>) {
  await using project = await tempProject();
  await using model = scriptedModel([
    { toolCalls: commands.map((command) => ({ name: "bash", arguments: { command } })) },
    { text: "done" },
  ]);
  const result = await runHelInProcess(["--base-url", model.url, "--access", "auto", "build it"], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  const messages = model.requests.at(-1)!.messages;
  await check(project.project);
  return {
    stderr: result.stderr,
    replies: messages.filter((m: { role: string }) => m.role === "tool").map((
      m: { content: string },
    ) => m.content),
  };
}

/** Every file under `dir` whose mode has the set-uid or set-gid bit. */
async function setIdFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    const info = await Deno.lstat(path);
    if (((info.mode ?? 0) & 0o6000) !== 0) found.push(`${entry.name} ${info.mode!.toString(8)}`);
    if (info.isDirectory) found.push(...await setIdFiles(path));
  }
  return found;
}

Deno.test({
  name: "as root hel warns once at start, saying the risk and what to do",
  ignore: !asRoot, // the warning is for root only; run the tests as root to see it
  async fn() {
    const { stderr } = await runCommands(["true"], async () => {});
    const warnings = stderr.match(/hel runs as root/g) ?? [];
    assert.equal(warnings.length, 1, stderr);
    assert.match(
      stderr,
      /programs in its sandbox still run as root, without capabilities: they can read files only root/,
    );
    assert.match(stderr, /Run hel as an ordinary user/);
  },
});

Deno.test({
  name: "sandboxed commands cannot leave set-uid or set-gid files in the project",
  ignore: !hasBwrap(),
  async fn() {
    const python = "import os; os.close(os.open('p', os.O_CREAT | os.O_WRONLY, 0o4755))";
    const { replies } = await runCommands([
      "cp /bin/sh x && chmod u+s x",
      "install -m 4755 /bin/sh y",
      `python3 -c "${python}"`,
      "mkdir d && chmod g+s d",
    ], async (project) => {
      assert.deepEqual(await setIdFiles(project), []);
    });
    for (const reply of replies) {
      assert.doesNotMatch(reply, /^exit=0/, reply);
      assert.match(reply, /Operation not permitted/, reply);
    }
  },
});

Deno.test({
  name: "a sandboxed command cannot change the kernel's settings as root",
  ignore: !hasBwrap() || !asRoot,
  async fn() {
    // The value is written back unchanged, so even a failing test leaves the machine as it was.
    const write =
      'v=$(cat /proc/sys/kernel/core_pattern) && echo "$v" > /proc/sys/kernel/core_pattern';
    const { replies } = await runCommands([write], async () => {});
    assert.doesNotMatch(replies[0]!, /^exit=0/, replies[0]);
    assert.match(replies[0]!, /Read-only file system/);
  },
});
