import assert from "node:assert/strict";
import { pathOutside } from "../../kit/mod.ts";

Deno.test("an unsandboxed server's PATH loses folders inside the project and relative ones", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.mkdir(`${root}/p/.venv/bin`, { recursive: true });
    await Deno.symlink(`${root}/p/.venv/bin`, `${root}/link`);
    const path = [
      `${root}/p/.venv/bin`,
      "/usr/bin",
      "node_modules/.bin",
      `${root}/link`, // a link from outside into the project
      `${root}/p/not-yet`,
      "",
      "/bin",
    ].join(":");
    assert.equal(pathOutside(path, `${root}/p`), "/usr/bin:/bin");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
