import assert from "node:assert/strict";
import { createTrustFileStore } from "../../kit/trust/file_store.ts";
import { ruleSaver } from "./rule_saver.ts";

async function setUp() {
  const root = await Deno.realPath(await Deno.makeTempDir());
  const helHome = `${root}/home/.hel`;
  await Deno.mkdir(helHome, { recursive: true });
  await Deno.mkdir(`${root}/project`);
  const context = {
    project: `${root}/project`,
    helHome,
    trust: createTrustFileStore(helHome, () => {}),
  };
  return { root, helHome, context, saver: ruleSaver(context, `${root}/home`) };
}

Deno.test("a scope is saved once as an allow rule, the person's file named with ~", async () => {
  const { root, helHome, saver } = await setUp();
  assert.deepEqual(saver.places, { user: "~/.hel/settings.jsonc", project: ".hel/settings.jsonc" });
  const scope = { kind: "command" as const, tool: "bash", prefix: "npm test" };
  assert.deepEqual(await saver.save(scope, "user"), {
    rule: "bash(npm test:*)",
    place: "user",
    shown: "~/.hel/settings.jsonc",
  });
  await saver.save(scope, "user");
  await saver.save({ kind: "server", server: "github" }, "user");
  assert.deepEqual(JSON.parse(await Deno.readTextFile(`${helHome}/settings.jsonc`)), {
    permissions: { allow: ["bash(npm test:*)", "mcp__github__*"] },
  });
  assert.deepEqual(saver.saved().map((entry) => entry.rule), [
    "bash(npm test:*)",
    "mcp__github__*",
  ]);
  await Deno.remove(root, { recursive: true });
});

Deno.test("a settings file of the wrong shape is left as it is, the problem named", async () => {
  const { root, helHome, saver } = await setUp();
  const file = `${helHome}/settings.jsonc`;
  for (const text of ['{ "permissions": { "allow": "bash" } }', '{ "permissions": ', "[1]"]) {
    await Deno.writeTextFile(file, text);
    const saved = await saver.save({ kind: "tool", tool: "write_file" }, "user");
    assert.ok("problem" in saved, text);
    assert.match(
      saved.problem,
      /^could not save the rule write_file in ~\/\.hel\/settings\.jsonc: /,
    );
    assert.equal(await Deno.readTextFile(file), text);
  }
  assert.deepEqual(saver.saved(), []);
  await Deno.remove(root, { recursive: true });
});

Deno.test("a project settings file planted as a link is refused before it is read", async () => {
  const { root, context, saver } = await setUp();
  // A link to a FIFO or /dev/zero would hang the chat if it were read; a folder shows the read.
  await Deno.mkdir(`${context.project}/.hel`);
  await Deno.symlink(root, `${context.project}/.hel/settings.jsonc`);
  const saved = await saver.save({ kind: "tool", tool: "write_file" }, "project");
  assert.ok("problem" in saved);
  assert.match(saved.problem, /is a symbolic link/);
  assert.equal((await Deno.lstat(`${context.project}/.hel/settings.jsonc`)).isSymlink, true);
  await Deno.remove(root, { recursive: true });
});
