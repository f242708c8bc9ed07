import assert from "node:assert/strict";
import { commandWords, namedPaths } from "./named_paths.ts";

async function layout() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-named-" }));
  const project = `${root}/project`;
  const files = [
    "project/.hel/guard.sh",
    "project/.hel/lib/util.py",
    "project/.hel/sessions/s/snapshot.json",
    "project/pkg/.hel/y.py",
    "project/outside.txt",
    "tools/server.py",
    "hel-home/trust.json",
  ];
  for (const path of files) {
    await Deno.mkdir(`${root}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, "");
  }
  await Deno.symlink("/etc/hostname", `${project}/.hel/link`);
  await Deno.symlink(`${root}/tools`, `${root}/tools-link`);
  return { root, project, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}

Deno.test("files and folders inside any .hel are shown, never sessions, links or .hel itself", async () => {
  await using l = await layout();
  const words = commandWords(
    "timeout 30 .hel/guard.sh && python3 .hel/lib/util.py; cat .hel/sessions/s/snapshot.json " +
      `.hel/link .hel/missing "${l.project}/.hel/lib" .hel pkg/.hel/y.py --config=.hel/guard.sh ` +
      ".hel/sessions outside.txt",
  );
  const named = await namedPaths(words, l.project, {});
  assert.deepEqual(named.expose, [
    `${l.project}/.hel/guard.sh`,
    `${l.project}/.hel/lib`,
    `${l.project}/.hel/lib/util.py`,
    `${l.project}/pkg/.hel/y.py`,
  ]);
  assert.deepEqual(named.reads, []);
});

Deno.test("a covered script outside the project shows its folder, never HEL_HOME or through a link", async () => {
  await using l = await layout();
  // The temporary folder lies in /tmp, which the sandbox covers with a private one.
  const named = await namedPaths(
    [
      "python3",
      `${l.root}/tools/server.py`,
      `--trust=${l.root}/hel-home/trust.json`,
      `${l.root}/tools-link/server.py`,
      "/usr/bin/env", // visible in the sandbox already
      "/tmp", // a cover itself: never shown whole
    ],
    l.project,
    { helHome: `${l.root}/hel-home` },
  );
  assert.deepEqual(named.reads, [`${l.root}/tools`]);
  assert.deepEqual(named.expose, []);
});

Deno.test("a file right in a covered folder is shown alone", async () => {
  const file = await Deno.makeTempFile({ prefix: "hel-named-", suffix: ".py" });
  try {
    const named = await namedPaths(["python3", file], "/nonexistent-project", {});
    assert.deepEqual(named.reads, [await Deno.realPath(file)]);
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("a data file in a covered folder is shown alone, a script with its folder", async () => {
  await using l = await layout();
  await Deno.writeTextFile(`${l.root}/tools/known_hosts`, "");
  await Deno.writeTextFile(`${l.root}/tools/run`, "");
  await Deno.chmod(`${l.root}/tools/run`, 0o755);
  const data = await namedPaths([`--known-hosts=${l.root}/tools/known_hosts`], l.project, {});
  assert.deepEqual(data.reads, [`${l.root}/tools/known_hosts`]);
  const program = await namedPaths([`${l.root}/tools/run`], l.project, {});
  assert.deepEqual(program.reads, [`${l.root}/tools`]);
});
