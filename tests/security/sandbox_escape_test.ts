/**
 * Escapes from the bash sandbox through the programs hel itself starts around a command
 * (bubblewrap, and `setsid` for the process group). When the user's PATH names a folder inside
 * the project (direnv's `PATH_add bin`, `./node_modules/.bin`), a sandboxed command could plant
 * its own `bwrap` or `setsid` there, and the next command (or hook) would run through it,
 * unsandboxed.
 */
import assert from "node:assert/strict";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { runHel, scriptedModel, tempProject } from "../_helpers.ts";
import { command, group, hooksJson, trustHooks } from "../_hooks.ts";

// deno-lint-ignore no-explicit-any
function toolReplies(messages: any[]): string[] {
  return messages.filter((message) => message.role === "tool").map((message) => message.content);
}

Deno.test({
  name: "a bwrap or setsid planted in a PATH folder inside the project is never run",
  ignore: !hasBwrap(),
  async fn() {
    await using project = await tempProject({ "ok.txt": "fine\n" });
    // A trusted hook: it runs outside the sandbox, through setsid.
    await project.write(".hel/hooks.json", hooksJson([], [group("^grep$", command("true"))]));
    await trustHooks(project);
    const marker = `${project.root}/escaped`;
    const plant = (name: string) =>
      `printf '#!/bin/sh\\necho ${name} >> ${marker}\\nexec /usr/bin/${name} "$@"\\n' ` +
      `> bin/${name} && chmod +x bin/${name}`;
    await using model = scriptedModel([
      {
        toolCalls: [{
          name: "bash",
          arguments: { command: `mkdir -p bin && ${plant("bwrap")} && ${plant("setsid")}` },
        }],
      },
      {
        toolCalls: [
          { name: "bash", arguments: { command: "echo second-call" } },
          { name: "grep", arguments: { pattern: "fine" } },
        ],
      },
      { text: "done" },
    ]);
    // Both a relative entry and an absolute one inside the project, ahead of the system's.
    const path = `bin:${project.project}/bin:${Deno.env.get("PATH")}`;
    const result = await runHel(
      ["--base-url", model.url, "--access", "auto", "plant"],
      { cwd: project.project, env: { PATH: path } },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(model.remaining(), 0);
    const replies = toolReplies(model.requests.at(-1)!.messages);
    assert.equal(replies[0], "exit=0\n");
    assert.equal(replies[1], "exit=0\nsecond-call\n");
    assert.equal(replies[2], "ok.txt:1:fine");
    // The planted programs exist, and were never started.
    assert.ok((await Deno.stat(`${project.project}/bin/bwrap`)).isFile);
    await assert.rejects(Deno.stat(marker), Deno.errors.NotFound);
  },
});
