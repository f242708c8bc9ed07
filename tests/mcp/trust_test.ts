/**
 * MCP configuration and trust end to end: nothing from `.hel/mcp.json` starts before its exact
 * bytes are trusted (by review on a terminal or pinned with `hel trust mcp --sha256`), any
 * change asks again, invalid files are rejected with the place and the fix, and `hel mcp list`
 * reports every server's status.
 *
 * @module
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../../kit/mod.ts";
import { scriptedModel } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { helOnTerminal } from "../_terminal.ts";
import {
  assertNoServerLeft,
  FAST,
  fixtureServer,
  helMcpInProcess,
  mcpProject,
  modelArgs,
  readLog,
  receivedMethods,
  systemText,
} from "../_mcp.ts";

const QUESTION = "Trust this project's MCP configuration? [y/N]";

async function configHash(project: { project: string }): Promise<string> {
  return await sha256Hex(await Deno.readFile(`${project.project}/.hel/mcp.json`));
}

Deno.test("untrusted configuration starts nothing; pinning by --sha256 trusts exactly those bytes", async () => {
  await using project = await mcpProject((root) => ({ t: fixtureServer(root, "t") }), {
    trusted: false,
  });
  const hash = await configHash(project);
  const log = project.logPath("t");

  await using untrusted = scriptedModel([{ text: "done" }]);
  let result = await helMcpInProcess(project, untrusted);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /\.hel\/mcp\.json is not trusted for this project/);
  assert.ok(result.stderr.includes(`hel trust mcp --sha256 ${hash}`), result.stderr);
  assert.deepEqual(untrusted.requests[0]!.toolNames, ["read_file"]);
  assert.doesNotMatch(systemText(untrusted.requests[0]!), /MCP tools/);
  assert.deepEqual(await readLog(log), []); // the server never ran

  // A wrong hash pins nothing; a malformed one is a usage error.
  const wrong = "0".repeat(64);
  result = await runHelInProcess(["trust", "mcp", "--sha256", wrong], { cwd: project.project });
  assert.equal(result.code, 1, result.stderr);
  result = await runHelInProcess(["trust", "mcp", "--sha256", "not-hex"], { cwd: project.project });
  assert.equal(result.code, 2, result.stderr);
  result = await runHelInProcess(["trust", "mcp", "--sha256", hash], { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);

  await using trusted = scriptedModel([{ text: "done" }]);
  result = await helMcpInProcess(project, trusted);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(trusted.requests[0]!.toolNames, ["read_file", "load_mcp_tool"]);
  assert.equal((await receivedMethods(log)).filter((m) => m === "initialize").length, 1);

  // One more byte (a trailing newline) is a different configuration: not trusted any more,
  // and the old hash no longer pins it.
  await Deno.writeTextFile(`${project.project}/.hel/mcp.json`, "\n", { append: true });
  await using changed = scriptedModel([{ text: "done" }]);
  result = await helMcpInProcess(project, changed);
  assert.match(result.stderr, /is not trusted for this project/);
  assert.deepEqual(changed.requests[0]!.toolNames, ["read_file"]);
  result = await runHelInProcess(["trust", "mcp", "--sha256", hash], { cwd: project.project });
  assert.equal(result.code, 1, result.stderr);
  assert.equal((await receivedMethods(log)).filter((m) => m === "initialize").length, 1);
  for (const model of [untrusted, trusted, changed]) assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("on a terminal the file is shown and asked about; no starts nothing, yes is remembered", async () => {
  await using project = await mcpProject((root) => ({
    // As a person writes it: the review below shows the command as the file names it.
    t: { ...fixtureServer(root, "t"), command: "python3" },
  }), {
    trusted: false,
  });
  const log = project.logPath("t");
  await using model = scriptedModel([{ text: "one" }, { text: "two" }, { text: "three" }]);
  const args = [...modelArgs(model), "--tools", "read_file", ...FAST, "-i", "go"];

  let run = helOnTerminal(project, args);
  await run.waitFor(QUESTION);
  assert.match(run.output(), /^ {2}run: python3 \S*test_server\.py/m); // what would start
  await run.type("n\n");
  let finished = await run.finish();
  assert.equal(finished.code, 0, finished.output);
  assert.match(finished.output, /you did not trust \.hel\/mcp\.json, so no MCP server was started/);
  assert.deepEqual(await readLog(log), []);

  run = helOnTerminal(project, args);
  await run.waitFor(QUESTION);
  await run.type("y\n");
  finished = await run.finish();
  assert.equal(finished.code, 0, finished.output);
  assert.deepEqual(model.requests[1]!.toolNames, ["read_file", "load_mcp_tool"]);

  // Same bytes: no question this time.
  run = helOnTerminal(project, args);
  finished = await run.finish();
  assert.equal(finished.code, 0, finished.output);
  assert.doesNotMatch(finished.output, /Trust this project's MCP/);
  assert.equal((await receivedMethods(log)).filter((m) => m === "initialize").length, 2);
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test("JSONC is accepted; mistakes are named with place and fix, and nothing starts", async () => {
  await using project = await mcpProject(() => ({}));
  const server = `{"command": "python3", "args": ["${project.root}/../nothing.py"]}`;
  await project.write(
    ".hel/mcp.json",
    `{\n  // comments and trailing commas are fine\n  "servers": {\n    "ok": {"comand": "python3"},\n` +
      `    "a__b": ${server},\n    "c": {"command": "python3", "timeout": 0},\n  },\n}\n`,
  );
  await using model = scriptedModel([{ text: "done" }]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /\.hel\/mcp\.json is invalid, so no MCP server was started/);
  assert.match(
    result.stderr,
    /\.hel\/mcp\.json:4:12: unknown field servers\."ok"\.comand \(did you mean "command"\?\)/,
  );
  assert.match(
    result.stderr,
    /invalid MCP server name "a__b": use letters, digits, '-' and single '_'/,
  );
  assert.match(result.stderr, /servers\."c"\.timeout must be a positive number of seconds/);
  // Invalid files are never offered for review.
  assert.doesNotMatch(result.stderr, /not trusted/);
  assert.deepEqual(model.requests[0]!.toolNames, ["read_file"]);
  assert.equal(model.remaining(), 0);
});

Deno.test("hel mcp list shows the status, tools and exclusions of every server, without asking anything", async () => {
  await using project = await mcpProject((root) => ({
    t: { ...fixtureServer(root, "t"), command: "python3" }, // listed as the file names it
    missing: { command: "definitely-not-an-mcp-server" },
  }), { trusted: false });
  let result = await runHelInProcess(["mcp", "list"], { cwd: project.project });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stdout, /is not trusted for this project, so no server was started/);
  assert.match(result.stdout, /^t: untrusted \(python3 .*test_server\.py/m);
  assert.deepEqual(await readLog(project.logPath("t")), []);

  result = await runHelInProcess(["trust", "mcp", "--sha256", await configHash(project)], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  result = await runHelInProcess(["--mcp-shutdown-wait", "0.3", "mcp", "list"], {
    cwd: project.project,
  });
  assert.equal(result.code, 1, result.stderr); // one server is not working
  const out = result.stdout;
  assert.match(out, /^\.hel\/mcp\.json: trusted \(sha256 [0-9a-f]{64}\)$/m);
  assert.match(
    out,
    /^t: connected, 12 tools, 1 excluded, call timeout 300 s \(up to 3000 s while it reports progress\)$/m,
  );
  assert.match(out, /^ {2}- mcp__t__echo: Echo text back\.$/m);
  assert.match(out, /^ {2}excluded "noschema": it has no object inputSchema/m);
  // A name too long for model APIs is kept under a hashed one, shown with the server's own.
  assert.match(
    out,
    /^ {2}- mcp__t__x{43}_[0-9a-f]{12}: A name that is too long\. \(server's name: "x{70}"; hashed: its name would be 78 characters, over the 64 model APIs accept\)$/m,
  );
  assert.match(
    out,
    /^missing: skipped: command "definitely-not-an-mcp-server" was not found on PATH$/m,
  );
  await assertNoServerLeft(project);
});
