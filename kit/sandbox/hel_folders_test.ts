import assert from "node:assert/strict";
import { runCommand } from "../../plugins/tools/shell/run_command.ts";
import { hasBwrap, testWorkspace } from "../../plugins/tools/testing.ts";
import { nestedHelFolders } from "./hel_folders.ts";
import { gitWatch } from "./planted_git.ts";
import { createSandbox, type SandboxSettings } from "./sandbox.ts";

Deno.test("every nested .hel folder is known under any spelling; links and files are not", async () => {
  await using t = await testWorkspace({
    ".hel/sessions/a/snapshot.json": "{}",
    "pkg/.hel/hooks.json": "{}",
    "a/b/c/.HEL/x": "",
    "data/real/x": "",
    "plain/.hel": "a file, not a folder",
  });
  await Deno.mkdir(`${t.project}/linked`);
  await Deno.symlink("../data/real", `${t.project}/linked/.hel`);
  const watch = gitWatch({ project: t.project, skip: [`${t.project}/.hel`], env: {} });
  assert.deepEqual(await nestedHelFolders(watch, `${t.project}/.hel`), [
    `${t.project}/a/b/c/.HEL`,
    `${t.project}/pkg/.hel`,
  ]);
});

Deno.test({
  name: "sandboxed programs see nested .hel folders empty and read-only, exposed files read-only",
  ignore: !hasBwrap(),
  async fn() {
    await using t = await testWorkspace({
      ".hel/hook.sh": "echo hook\n",
      ".hel/sessions/s/snapshot.json": "secret-top",
      "pkg/.hel/sessions/s/snapshot.json": "secret-nested",
      "pkg/.hel/check.sh": "echo trusted\n",
    });
    const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: t.root, LANG: "C" };
    const settings: SandboxSettings = {
      enabled: true,
      network: false,
      project: t.project,
      helDir: `${t.project}/.hel`,
      env,
    };
    const run = async (command: string, expose?: string[]) => {
      const sandbox = createSandbox(settings);
      const prepared = await sandbox.prepare(
        "/bin/sh",
        ["-c", command],
        expose ? { expose } : {},
      );
      assert.ok(prepared.ok, !prepared.ok ? prepared.text : "");
      const outcome = await runCommand({
        program: prepared.program,
        args: prepared.args,
        cwd: t.project,
        env: prepared.env,
        timeoutMs: 30_000,
      });
      assert.equal(outcome.kind, "finished");
      await sandbox.afterRun(); // as bash and hooks do
      return outcome.kind === "finished" ? outcome.stdout + outcome.stderr : "";
    };
    assert.equal(await run("ls -A pkg/.hel .hel | tr '\\n' ' '"), ".hel:  pkg/.hel: ");
    assert.match(await run("echo x > pkg/.hel/check.sh"), /Read-only file system/);
    assert.match(await run("mv pkg pkg2"), /Device or resource busy|Read-only/);
    assert.equal(
      await run("sh .hel/hook.sh; cat .hel/sessions/s/snapshot.json", [
        `${t.project}/.hel/hook.sh`,
      ]).then((out) => out.split("\n")[0]),
      "hook",
    );
    assert.match(await run("echo x > .hel/hook.sh", [`${t.project}/.hel/hook.sh`]), /Read-only/);
    // A .hel made during the run (here by a command) is hidden from the next program.
    assert.equal(
      await run("mkdir -p new/.hel && echo made > new/.hel/x && cat new/.hel/x"),
      "made\n",
    );
    assert.match(await run("cat new/.hel/x"), /No such file/);
    assert.equal(await t.read("pkg/.hel/check.sh"), "echo trusted\n");
    assert.equal(await t.read(".hel/hook.sh"), "echo hook\n");
  },
});
