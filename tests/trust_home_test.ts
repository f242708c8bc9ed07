/**
 * Where hel keeps its trust store when the environment does not say: never inside the project,
 * where a cloned repository could ship a record approving its own hooks or MCP servers.
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../core/mod.ts";
import { runHel, scriptedModel, tempProject } from "./_helpers.ts";
import { baseArgs, command, exists, group, hooksJson } from "./_hooks.ts";

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
  const run = await runHel([...baseArgs(model), "-i", "go"], {
    cwd: project.project,
    unset: ["HOME", "HEL_HOME"],
  });
  assert.equal(await exists(`${project.project}/hook-ran.marker`), false, "the hook never ran");
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /neither HEL_HOME nor HOME is set/);
  assert.equal(model.requests.length, 0);
});
