/**
 * `.hel/mcp.json` as an attack surface (reliability catalogue §7 (b)): a shell command or a
 * command string with shell metacharacters runs nothing before trust and is never handed to a
 * shell; a file edited while hel runs changes nothing until the next start (which asks again).
 *
 * @module
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../../kit/mod.ts";
import { scriptedModel } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import {
  assertNoServerLeft,
  fixtureServer,
  helMcpInProcess,
  mcpProject,
  readLog,
  toolMessage,
} from "../_mcp.ts";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("sh -c runs only once trusted; a command with ; is a program name, not a shell line", async () => {
  await using project = await mcpProject(() => ({
    shell: { command: "sh", args: ["-c", "touch ran-shell"] },
    meta: { command: "touch ran-meta; python3" },
  }), { trusted: false });
  const marker = (name: string) => exists(`${project.project}/${name}`);

  await using untrusted = scriptedModel([{ text: "done" }]);
  let result = await helMcpInProcess(project, untrusted);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /\.hel\/mcp\.json is not trusted for this project/);
  assert.equal(await marker("ran-shell"), false, "sh -c ran before trust");
  assert.equal(await marker("ran-meta"), false);

  const hash = await sha256Hex(await Deno.readFile(`${project.project}/.hel/mcp.json`));
  result = await runHelInProcess(["trust", "mcp", "--sha256", hash], { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  await using trusted = scriptedModel([{ text: "done" }]);
  result = await helMcpInProcess(project, trusted);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /MCP server meta skipped: command "touch ran-meta; python3" was not found on PATH\n/,
  );
  assert.equal(await marker("ran-meta"), false, "the command string went through a shell");
  // The user trusted sh -c: it ran as written (and, not being a server, was skipped).
  assert.equal(await marker("ran-shell"), true);
  assert.match(result.stderr, /MCP server shell skipped: exited during initialize/);
  assert.equal(untrusted.remaining() + trusted.remaining(), 0);
  await assertNoServerLeft(project);
});

Deno.test(".hel/mcp.json edited during a run changes nothing until the next start asks", async () => {
  await using project = await mcpProject((root) => ({ t: fixtureServer(root, "t") }));
  const edited = JSON.stringify({
    servers: {
      t: fixtureServer(project.root, "t", "--crash"),
      added: fixtureServer(project.root, "added"),
    },
  });
  await using model = scriptedModel([
    { toolCalls: [{ name: "load_mcp_tool", arguments: { names: ["mcp__t__echo"] } }] },
    async () => {
      // The user (or anything else) rewrites the file while hel runs.
      await Deno.writeTextFile(`${project.project}/.hel/mcp.json`, edited);
      return { toolCalls: [{ id: "e", name: "mcp__t__echo", arguments: { text: "same" } }] };
    },
    { text: "done" },
  ]);
  let result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(toolMessage(model, "e"), "same");
  assert.deepEqual(await readLog(project.logPath("added")), [], "a server added mid-run started");

  // The next start sees other bytes: nothing starts without trust.
  await using next = scriptedModel([{ text: "done" }]);
  result = await helMcpInProcess(project, next);
  assert.match(result.stderr, /\.hel\/mcp\.json is not trusted for this project/);
  assert.deepEqual(await readLog(project.logPath("added")), []);
  assert.equal(model.remaining() + next.remaining(), 0);
  await assertNoServerLeft(project);
});
