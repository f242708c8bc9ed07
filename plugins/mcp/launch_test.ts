import assert from "node:assert/strict";
import { pathOutside } from "../../kit/mod.ts";
import { exposed } from "./launch.ts";

Deno.test("launch: an unsandboxed server's PATH loses folders inside the project and relative ones", async () => {
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

Deno.test("launch: the files an entry names inside .hel are shown; folders and links out are not", async () => {
  const project = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.mkdir(`${project}/.hel/mcp`, { recursive: true });
    await Deno.mkdir(`${project}/pkg/.hel`, { recursive: true });
    await Deno.writeTextFile(`${project}/.hel/mcp/x.py`, "");
    await Deno.writeTextFile(`${project}/.hel/conf.json`, "");
    await Deno.writeTextFile(`${project}/pkg/.hel/y.py`, "");
    await Deno.writeTextFile(`${project}/outside.txt`, "");
    await Deno.symlink("/etc/passwd", `${project}/.hel/mcp/passwd`);
    await Deno.symlink(`${project}/outside.txt`, `${project}/.hel/mcp/out`);
    const words = [
      "python3",
      ".hel/mcp/x.py",
      "--config=.hel/conf.json",
      `${project}/pkg/.hel/y.py`,
      ".hel/mcp", // a folder
      ".hel",
      ".hel/mcp/passwd",
      ".hel/mcp/out",
      ".hel/missing.py",
      "outside.txt",
    ];
    assert.deepEqual(await exposed(project, words), [
      `${project}/.hel/mcp/x.py`,
      `${project}/.hel/conf.json`,
      `${project}/pkg/.hel/y.py`,
    ]);
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});
