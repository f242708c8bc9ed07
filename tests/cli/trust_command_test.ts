/**
 * `hel trust`, end to end: review now on a terminal, pin reviewed bytes with --sha256 in
 * scripts (a mismatch records nothing), list and revoke.
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../../kit/mod.ts";
import { tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { exists, HOOKS_QUESTION, hooksJson } from "../_hooks.ts";
import { helOnTerminal } from "../_terminal.ts";

const HOOKS = hooksJson([{ hooks: [{ type: "command", command: "echo hi" }] }]);
const MCP = '{"servers": {}}\n';

Deno.test("--sha256 records only when the file has exactly that hash", async () => {
  await using project = await tempProject({ ".hel/hooks.json": HOOKS });
  const store = `${project.root}/hel-home/trust.json`;
  const hash = await sha256Hex(new TextEncoder().encode(HOOKS));
  const other = await sha256Hex(new TextEncoder().encode(HOOKS + "\n"));

  const wrong = await runHelInProcess(["trust", "hooks", "--sha256", other], {
    cwd: project.project,
  });
  assert.equal(wrong.code, 1, wrong.stderr);
  assert.match(
    wrong.stderr,
    new RegExp(`hooks\\.json has SHA-256 ${hash}, not ${other}; nothing was recorded`),
  );
  assert.equal(await exists(store), false);

  const malformed = await runHelInProcess(["trust", "hooks", "--sha256", "abc"], {
    cwd: project.project,
  });
  assert.equal(malformed.code, 2);
  assert.match(malformed.stderr, /--sha256 abc: expected 64 hexadecimal characters/);

  const right = await runHelInProcess(["trust", "hooks", "--sha256", hash.toUpperCase()], {
    cwd: project.project,
  });
  assert.equal(right.code, 0, right.stderr);
  assert.match(right.stderr, /hel: trusted \S+\/\.hel\/hooks\.json \(sha256 [0-9a-f]{64}\)/);
  const records = JSON.parse(await Deno.readTextFile(store)).records;
  assert.deepEqual(
    records.map((r: { kind: string; project: string; sha256: string }) => [
      r.kind,
      r.project,
      r.sha256,
    ]),
    [["hooks", project.project, hash]],
  );
});

Deno.test("an invalid hooks.json is never trusted: hel trust names every mistake first", async () => {
  // A typo hel would skip at start: trusting it would approve nothing that runs.
  const invalid = hooksJson([{ hooks: [{ type: "command", comand: "echo hi" }] }]);
  await using project = await tempProject({ ".hel/hooks.json": invalid });
  const hash = await sha256Hex(new TextEncoder().encode(invalid));
  for (const args of [["--sha256", hash], []]) {
    const result = await runHelInProcess(["trust", "hooks", ...args], { cwd: project.project });
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stderr,
      /^hel: \S+\/\.hel\/hooks\.json:\d+:\d+: unknown field "comand" in hooks\.PreToolUse\[0\]\.hooks\[0\]/m,
    );
    // Every mistake at once: the missing command is the second, on a line of its own.
    assert.match(
      result.stderr,
      /^ {2}\S+\/\.hel\/hooks\.json:\d+:\d+: hooks\.PreToolUse\[0\]\.hooks\[0\]\.command must be a non-blank string/m,
    );
    assert.match(
      result.stderr,
      /^hel: nothing was trusted; fix \S+hooks\.json and run hel trust hooks again$/m,
    );
    assert.doesNotMatch(result.stderr, /needs a terminal/);
  }
  assert.equal(await exists(`${project.root}/hel-home/trust.json`), false);
});

Deno.test("--list shows every record; --revoke removes one kind for this project", async () => {
  await using project = await tempProject({ ".hel/hooks.json": HOOKS, ".hel/mcp.json": MCP });
  const cwd = project.project;
  const empty = await runHelInProcess(["trust", "--list"], { cwd });
  assert.equal(empty.code, 0, empty.stderr);
  assert.match(empty.stdout, /^No trust records in \S+\/hel-home\/trust\.json\.\n$/);

  const hooksHash = await sha256Hex(new TextEncoder().encode(HOOKS));
  const mcpHash = await sha256Hex(new TextEncoder().encode(MCP));
  assert.equal((await runHelInProcess(["trust", "hooks", "--sha256", hooksHash], { cwd })).code, 0);
  assert.equal((await runHelInProcess(["trust", "mcp", "--sha256", mcpHash], { cwd })).code, 0);
  const listed = await runHelInProcess(["trust", "--list"], { cwd });
  assert.equal(listed.code, 0, listed.stderr);
  const lines = listed.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, new RegExp(`^hooks  ${cwd}  sha256 ${hooksHash}  trusted \\d{4}-`));
  assert.match(lines[1]!, new RegExp(`^mcp    ${cwd}  sha256 ${mcpHash}  trusted \\d{4}-`));

  const revoked = await runHelInProcess(["trust", "--revoke", "hooks"], { cwd });
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.match(revoked.stderr, /revoked hooks trust for /);
  const after = await runHelInProcess(["trust", "--list"], { cwd });
  assert.doesNotMatch(after.stdout, /^hooks/m);
  assert.match(after.stdout, /^mcp /m);
  const again = await runHelInProcess(["trust", "--revoke", "hooks"], { cwd });
  assert.match(again.stderr, /no hooks trust record .* nothing to revoke/);
});

Deno.test("reviewing needs a terminal; there it shows what the file runs and records a yes", async () => {
  await using project = await tempProject({ ".hel/hooks.json": HOOKS });
  const store = `${project.root}/hel-home/trust.json`;
  const headless = await runHelInProcess(["trust", "hooks"], { cwd: project.project });
  assert.equal(headless.code, 2, "a setup error, as the README's exit codes say");
  assert.match(headless.stderr, /needs a terminal.*hel trust hooks --sha256/);
  assert.equal(await exists(store), false);

  const refused = helOnTerminal(project, ["trust", "hooks"]);
  await refused.waitFor(HOOKS_QUESTION);
  await refused.type("n\n");
  const no = await refused.finish();
  assert.equal(no.code, 1, no.output);
  assert.equal(await exists(store), false);

  const approved = helOnTerminal(project, ["trust", "hooks"]);
  await approved.waitFor(HOOKS_QUESTION);
  assert.match(approved.output(), /^ {2}sh -c: echo hi\r?$/m);
  await approved.type("yes\n");
  const yes = await approved.finish();
  assert.equal(yes.code, 0, yes.output);
  assert.match(yes.output, /trusted \S+\/\.hel\/hooks\.json for /);
  assert.equal(JSON.parse(await Deno.readTextFile(store)).records.length, 1);

  const already = await runHelInProcess(["trust", "hooks"], { cwd: project.project });
  assert.equal(already.code, 0, already.stderr);
  assert.match(already.stderr, /already trusted as it is now/);
});

Deno.test("hel trust without a file, with an unknown kind or with no mode is refused", async () => {
  await using project = await tempProject();
  const cwd = project.project;
  const missing = await runHelInProcess(["trust", "mcp", "--sha256", "0".repeat(64)], { cwd });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /\.hel\/mcp\.json does not exist; there is nothing to trust/);
  const unknown = await runHelInProcess(["trust", "skills"], { cwd });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown kind "skills"; use hooks, mcp or settings/);
  const none = await runHelInProcess(["trust"], { cwd });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /needs exactly one of/);
});
