import assert from "node:assert/strict";
import { findMissingCommand } from "./find_command.ts";

Deno.test("find command: a script without its executable bit is named as such, not started", async () => {
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
