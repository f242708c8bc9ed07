import assert from "node:assert/strict";
import { PROJECT_CONFIG_MAX_BYTES, readProjectConfig } from "./project_file.ts";

async function withProject(test: (project: string, root: string) => Promise<void>) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-config-" }));
  await Deno.mkdir(`${root}/project`);
  try {
    await test(`${root}/project`, root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("absent .hel or file is 'absent'; a regular file gives its exact bytes", async () => {
  await withProject(async (project) => {
    assert.equal((await readProjectConfig(project, "hooks.json")).kind, "absent");
    await Deno.mkdir(`${project}/.hel`);
    assert.equal((await readProjectConfig(project, "hooks.json")).kind, "absent");
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0a]);
    await Deno.writeFile(`${project}/.hel/hooks.json`, bytes);
    const file = await readProjectConfig(project, "hooks.json");
    assert.equal(file.kind, "ok");
    assert.deepEqual(file.kind === "ok" && file.bytes, bytes);
    assert.equal(file.path, `${project}/.hel/hooks.json`);
  });
});

Deno.test("symlinks, directories and oversized files are unusable, with the reason", async () => {
  await withProject(async (project, root) => {
    await Deno.mkdir(`${root}/elsewhere`);
    await Deno.writeTextFile(`${root}/elsewhere/hooks.json`, "{}");
    await Deno.symlink(`${root}/elsewhere`, `${project}/.hel`);
    const linkedDir = await readProjectConfig(project, "hooks.json");
    assert.equal(linkedDir.kind, "unusable");
    assert.match(
      linkedDir.kind === "unusable" ? linkedDir.message : "",
      /must be a real directory/,
    );

    await Deno.remove(`${project}/.hel`);
    await Deno.mkdir(`${project}/.hel`);
    await Deno.symlink(`${root}/elsewhere/hooks.json`, `${project}/.hel/hooks.json`);
    const linkedFile = await readProjectConfig(project, "hooks.json");
    assert.match(
      linkedFile.kind === "unusable" ? linkedFile.message : "",
      /must be a regular file/,
    );

    await Deno.mkdir(`${project}/.hel/mcp.json`);
    const dir = await readProjectConfig(project, "mcp.json");
    assert.match(dir.kind === "unusable" ? dir.message : "", /must be a regular file/);

    await Deno.remove(`${project}/.hel/hooks.json`);
    await Deno.writeFile(
      `${project}/.hel/hooks.json`,
      new Uint8Array(PROJECT_CONFIG_MAX_BYTES + 1),
    );
    const big = await readProjectConfig(project, "hooks.json");
    assert.match(big.kind === "unusable" ? big.message : "", /larger than 1 MiB/);
  });
});
