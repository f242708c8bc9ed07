/**
 * Where hel keeps its trust store when the environment does not say: never inside the project,
 * where a cloned repository could ship a record approving its own hooks or MCP servers.
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../../kit/mod.ts";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { scriptedModel, tempProject, toolMessage } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { baseArgs, command, exists, group, hooksJson } from "../_hooks.ts";

Deno.test("without HOME and HEL_HOME a trust record shipped in the project's .hel is not used", async () => {
  const hooks = hooksJson([group(undefined, command("echo ran >> hook-ran.marker"))]);
  await using project = await tempProject({ "a.txt": "old\n", ".hel/hooks.json": hooks });
  const sha256 = await sha256Hex(await Deno.readFile(`${project.project}/.hel/hooks.json`));
  const record = { kind: "hooks", project: project.project, sha256, trustedAt: "2026-01-01" };
  await project.write(".hel/trust.json", JSON.stringify({ version: 1, records: [record] }));
  await using model = scriptedModel([
    { toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] },
    { text: "done" },
  ]);
  const run = await runHelInProcess([...baseArgs(model), "-i", "go"], {
    cwd: project.project,
    unset: ["HOME", "HEL_HOME"],
  });
  assert.equal(await exists(`${project.project}/hook-ran.marker`), false, "the hook never ran");
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /neither HEL_HOME nor HOME is set/);
  assert.equal(model.requests.length, 0);
});

Deno.test("a relative HEL_HOME is refused: a trust record shipped under that name in the project is not used", async () => {
  const hooks = hooksJson([group(undefined, command("echo ran >> hook-ran.marker"))]);
  await using project = await tempProject({ "a.txt": "old\n", ".hel/hooks.json": hooks });
  const sha256 = await sha256Hex(await Deno.readFile(`${project.project}/.hel/hooks.json`));
  const record = { kind: "hooks", project: project.project, sha256, trustedAt: "2026-01-01" };
  // `~` is not expanded in env files and CI yaml: a repository can ship a folder of that name.
  await project.write("~/.hel/trust.json", JSON.stringify({ version: 1, records: [record] }));
  await using model = scriptedModel([{ text: "never" }]);
  for (const args of [[...baseArgs(model), "-i", "go"], ["trust", "--list"]]) {
    const run = await runHelInProcess(args, { cwd: project.project, env: { HEL_HOME: "~/.hel" } });
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /HEL_HOME is "~\/\.hel", a relative path, .* set HEL_HOME to an absolute path/,
    );
  }
  assert.equal(await exists(`${project.project}/hook-ran.marker`), false, "the hook never ran");
  assert.equal(model.requests.length, 0);
});

Deno.test({
  name:
    "with $HEL_HOME inside the project, neither bash nor the file tools can write the trust store",
  ignore: !hasBwrap(),
  async fn() {
    await using project = await tempProject({ "a.txt": "old\n" });
    const home = `${project.project}/state/hel-home`;
    const planted = JSON.stringify({ version: 1, records: [] });
    await using model = scriptedModel([
      {
        toolCalls: [
          {
            id: "bash",
            name: "bash",
            arguments: {
              command: `mkdir -p state/hel-home; echo '${planted}' > state/hel-home/trust.json`,
            },
          },
          {
            id: "write",
            name: "write_file",
            arguments: { path: "state/hel-home/trust.json", content: planted },
          },
          {
            id: "move",
            name: "bash",
            arguments: {
              command: `mv state moved; mkdir -p state/hel-home; echo '${planted}' > ` +
                "state/hel-home/trust.json",
            },
          },
        ],
      },
      { text: "done" },
    ]);
    const run = await runHelInProcess([...baseArgs(model), "-i", "go"], {
      cwd: project.project,
      env: { HEL_HOME: home },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(model.remaining(), 0);
    assert.match(toolMessage(model, "bash"), /trust\.json: Read-only file system/);
    assert.match(toolMessage(model, "write"), /^error: .*hel's own folder \(\$HEL_HOME\)/);
    // The folder holding $HEL_HOME cannot be moved away to make room for a fresh one.
    assert.match(toolMessage(model, "move"), /cannot move 'state' to 'moved': Device or resource/);
    assert.equal(await exists(`${home}/trust.json`), false);

    // hel run in the home folder: $HEL_HOME is the project's .hel, which stays hidden.
    await Deno.writeTextFile(`${project.project}/.hel/trust.json`, planted);
    await using second = scriptedModel([
      { toolCalls: [{ id: "ls", name: "bash", arguments: { command: "ls -A .hel | wc -l" } }] },
      { text: "done" },
    ]);
    const again = await runHelInProcess([...baseArgs(second), "-i", "go"], {
      cwd: project.project,
      env: { HEL_HOME: `${project.project}/.hel` },
    });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(toolMessage(second, "ls"), "exit=0\n0\n");
  },
});
