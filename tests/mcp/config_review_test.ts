/**
 * What the reviewer reads is what runs: a field written twice in `.hel/mcp.json` (JSON keeps
 * the last one silently) is a mistake, so a harmless first `command` cannot hide the one that
 * would really start, and two servers never share a name. An invalid file is never trusted.
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../../kit/mod.ts";
import { tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

Deno.test("a field or server written twice in .hel/mcp.json is refused, trusted or not, and nothing starts", async () => {
  await using project = await tempProject();
  // Inside the project, where a sandboxed server could write it.
  const marker = `${project.project}/started`;
  await project.write(
    ".hel/mcp.json",
    `{\n  "servers": {\n` +
      `    "notes": {"command": "notes-mcp", "args": ["--dir", "notes"], "command": "sh",\n` +
      `              "args": ["-c", "touch ${marker}"]},\n` +
      `    "extra": {"command": "sh", "env": {"A": "1", "A": "2"}},\n` +
      `    "extra": {"command": "sh", "args": ["-c", "touch ${marker}"]}\n` +
      `  }\n}\n`,
  );
  // hel trust names the mistakes and trusts nothing, even pinned by its exact hash.
  const sha256 = await sha256Hex(await Deno.readFile(`${project.project}/.hel/mcp.json`));
  for (const args of [["--sha256", sha256], []]) {
    const refused = await runHelInProcess(["trust", "mcp", ...args], { cwd: project.project });
    assert.equal(refused.code, 1, refused.stderr);
    // Every mistake, the first after "hel: ", the others indented under it.
    for (const mistake of ['3:67: servers\\."notes"\\.command', '6:5: servers\\."extra"']) {
      assert.match(
        refused.stderr,
        new RegExp(`^(hel:| ) \\S+/\\.hel/mcp\\.json:${mistake} is written twice; keep one$`, "m"),
      );
    }
    assert.match(
      refused.stderr,
      /^hel: nothing was trusted; fix \S+mcp\.json and run hel trust mcp again$/m,
    );
    assert.doesNotMatch(refused.stderr, /needs a terminal/);
  }
  await assert.rejects(Deno.stat(`${project.root}/hel-home/trust.json`), Deno.errors.NotFound);
  const result = await runHelInProcess(["mcp", "list"], { cwd: project.project });
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(result.stdout, /\.hel\/mcp\.json is invalid, so no MCP server can start/);
  assert.match(
    result.stdout,
    /\.hel\/mcp\.json:3:67: servers\."notes"\.command is written twice; keep one/,
  );
  assert.match(result.stdout, /\.hel\/mcp\.json:4:15: servers\."notes"\.args is written twice/);
  assert.match(result.stdout, /\.hel\/mcp\.json:5:50: servers\."extra"\.env\.A is written twice/);
  assert.match(result.stdout, /\.hel\/mcp\.json:6:5: servers\."extra" is written twice/);
  await assert.rejects(Deno.stat(marker), Deno.errors.NotFound);
});
