/**
 * The model API key never reaches the programs hel starts outside the sandbox (hooks, MCP
 * servers, bash with `--sandbox off`): not through their environment, and not through hel's
 * own `/proc/<pid>/environ`, which any process of the same user could otherwise read.
 */
import assert from "node:assert/strict";
import { MAIN_TS, scriptedModel, tempProject } from "../_helpers.ts";
import { baseArgs, command, group, hooksJson, trustHooks } from "../_hooks.ts";

const API_KEY = "sk-must-not-leak-via-proc-9b2e";

/**
 * Root may read any process's /proc entries. As root, hel runs in a user namespace as an
 * ordinary user (files stay readable: root outside is that user inside), so the test means the
 * same in CI as on a laptop.
 */
function asOrdinaryUser(args: string[]): [string, string[]] {
  if (Deno.uid() !== 0) return [Deno.execPath(), args];
  return ["unshare", [
    "--user",
    "--map-user=1000",
    "--map-group=1000",
    "--",
    Deno.execPath(),
    ...args,
  ]];
}

Deno.test({
  name: "hooks and unsandboxed bash cannot read the API key from hel's /proc environ",
  ignore: Deno.build.os !== "linux",
  async fn() {
    // Counts the key's occurrences in the parent's (hel's) environment; 0 when unreadable.
    const probe = `{ tr '\\0' '\\n' < /proc/$PPID/environ; } 2>/dev/null | grep -c ${API_KEY}`;
    await using project = await tempProject({ "a.txt": "x\n" });
    await project.write(
      ".hel/hooks.json",
      hooksJson([group("^bash$", command(`${probe} > hook.out; true`))]),
    );
    await trustHooks(project);
    await using model = scriptedModel([
      {
        toolCalls: [{
          name: "bash",
          arguments: { command: `${probe}; env | grep -c API_KEY; true` },
        }],
      },
      { text: "done" },
    ]);
    const [program, args] = asOrdinaryUser([
      "run",
      "--allow-all",
      MAIN_TS,
      ...baseArgs(model),
      "--sandbox",
      "off",
      "-i",
      "go",
    ]);
    const output = await new Deno.Command(program, {
      args,
      cwd: project.project,
      env: {
        ...Deno.env.toObject(),
        HEL_API_KEY: API_KEY,
        DEEPSEEK_API_KEY: API_KEY,
        HEL_HOME: `${project.root}/hel-home`,
        NO_COLOR: "1",
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    assert.equal(model.remaining(), 0);
    assert.equal(await project.read("hook.out"), "0\n");
    const reply = model.requests.at(-1)!.messages.find((m) => m.role === "tool")!.content;
    assert.equal(reply, "exit=0\n0\n0\n");
  },
});
