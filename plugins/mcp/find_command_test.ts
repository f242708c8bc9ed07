import assert from "node:assert/strict";
import { findMissingCommand } from "./find_command.ts";

Deno.test("a script without its executable bit is named as such, not started", async () => {
  const project = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${project}/server.py`, "print('hi')\n");
    await Deno.chmod(`${project}/server.py`, 0o644);
    assert.match(
      (await findMissingCommand("./server.py", project, {})) ?? "",
      /^command "\.\/server\.py" is not executable; .*"command": "python3", "args": \["\.\/server\.py"\]/,
    );
    // On PATH only executable files count, as in the system's own lookup.
    assert.match(
      (await findMissingCommand("server.py", project, { PATH: project })) ?? "",
      /was not found on PATH$/,
    );
    await Deno.chmod(`${project}/server.py`, 0o755);
    assert.equal(await findMissingCommand("./server.py", project, {}), undefined);
    assert.equal(await findMissingCommand("server.py", project, { PATH: project }), undefined);
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});

Deno.test("~ and $VARIABLES are named as unexpanded; a directory as a directory", async () => {
  const project = await Deno.makeTempDir();
  try {
    const hint =
      / \(hel starts it without a shell, so ~ and \$VARIABLES are not expanded; write the full path\)$/;
    assert.match((await findMissingCommand("~/bin/notes-mcp", project, {})) ?? "", hint);
    assert.match((await findMissingCommand("$HOME/bin/notes-mcp", project, {})) ?? "", hint);
    assert.match(
      (await findMissingCommand("${NOTES_MCP}", project, { PATH: project })) ?? "",
      hint,
    );
    assert.equal(
      await findMissingCommand("./bin/notes-mcp", project, {}),
      'command "./bin/notes-mcp" was not found',
    );
    await Deno.mkdir(`${project}/bin`);
    assert.equal(await findMissingCommand("./bin", project, {}), 'command "./bin" is a directory');
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});

Deno.test("a script whose #! interpreter is missing names the interpreter", async () => {
  const project = await Deno.makeTempDir();
  try {
    const script = async (name: string, first: string) => {
      await Deno.writeTextFile(`${project}/${name}`, `${first}\nprint('hi')\n`);
      await Deno.chmod(`${project}/${name}`, 0o755);
    };
    await script("direct", "#!/nonexistent/python9 -u");
    await script("viaenv", "#!/usr/bin/env python9");
    await script("good", "#!/bin/sh");
    assert.equal(
      await findMissingCommand("./direct", project, {}),
      'command "./direct" starts with "#!/nonexistent/python9 -u", but /nonexistent/python9 ' +
        "was not found; install it or correct the script's first line",
    );
    assert.equal(
      await findMissingCommand("viaenv", project, { PATH: `${project}:/usr/bin:/bin` }),
      'command "viaenv" starts with "#!/usr/bin/env python9", but python9 was not found on ' +
        "PATH; install it or correct the script's first line",
    );
    assert.equal(await findMissingCommand("./good", project, {}), undefined);
    await script("python9", "#!/bin/sh");
    assert.equal(
      await findMissingCommand("./viaenv", project, { PATH: `${project}:/usr/bin:/bin` }),
      undefined,
    );
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});
