import assert from "node:assert/strict";
import { PROJECT_CONFIG_MAX_BYTES } from "./project_file.ts";
import { projectIsHelHome, readUserConfig } from "./user_file.ts";

async function withRoot(test: (root: string) => Promise<void>) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-user-config-" }));
  try {
    await test(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("$HEL_HOME/<name>: absent, its exact bytes, and a link to dotfiles followed", async () => {
  await withRoot(async (root) => {
    await Deno.mkdir(`${root}/home`);
    assert.deepEqual(await readUserConfig(`${root}/home/.`, "mcp.json"), {
      kind: "absent",
      path: `${root}/home/mcp.json`,
    });
    await Deno.writeTextFile(`${root}/dotfiles.json`, "{}\n");
    await Deno.symlink(`${root}/dotfiles.json`, `${root}/home/mcp.json`);
    assert.deepEqual(await readUserConfig(`${root}/home`, "mcp.json"), {
      kind: "ok",
      path: `${root}/home/mcp.json`,
      bytes: new TextEncoder().encode("{}\n"),
    });
  });
});

Deno.test("$HEL_HOME/<name>: a folder or a pipe is no file (a pipe is not opened), a large file is refused", async () => {
  await withRoot(async (root) => {
    await Deno.mkdir(`${root}/settings.jsonc`);
    assert.equal((await readUserConfig(root, "settings.jsonc")).kind, "not-file");
    const pipe = new Deno.Command("mkfifo", { args: [`${root}/mcp.json`] });
    assert.equal((await pipe.output()).code, 0);
    assert.equal((await readUserConfig(root, "mcp.json")).kind, "not-file");
    const size = PROJECT_CONFIG_MAX_BYTES + 1;
    await Deno.writeFile(`${root}/big.json`, new Uint8Array(size));
    assert.deepEqual(await readUserConfig(root, "big.json"), {
      kind: "too-large",
      path: `${root}/big.json`,
      size,
    });
  });
});

Deno.test("the project's .hel is $HEL_HOME when it is the same folder, however named", async () => {
  await withRoot(async (root) => {
    assert.equal(await projectIsHelHome(`${root}/.hel`, root), false);
    await Deno.mkdir(`${root}/.hel`);
    assert.equal(await projectIsHelHome(`${root}/.hel`, root), true);
    assert.equal(await projectIsHelHome(`${root}/x/../.hel`, root), true);
    await Deno.mkdir(`${root}/other`);
    assert.equal(await projectIsHelHome(`${root}/other`, root), false);
    await Deno.symlink(`${root}/.hel`, `${root}/link`);
    assert.equal(await projectIsHelHome(`${root}/link`, root), true);
  });
});
