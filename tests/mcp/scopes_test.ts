/**
 * The person's own `$HEL_HOME/mcp.json` next to the project's `.hel/mcp.json` in a run: its
 * servers start without a trust question, their tools reach the model, a name both files use
 * runs the project's entry with one warning naming both files, and a broken file does not stop
 * the other's servers.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel, type TempProject, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { helOnTerminal } from "../_terminal.ts";
import {
  assertNoServerLeft,
  FAST,
  fixtureServer,
  helMcpInProcess,
  logFolder,
  mcpProject,
  modelArgs,
  readLog,
  receivedCalls,
  systemText,
  toolMessage,
} from "../_mcp.ts";

const userFile = (project: TempProject) => `${project.root}/hel-home/mcp.json`;

/** The model loads `tool` and calls it with `text`, then ends. */
const loadAndCall = (tool: string, text: string) => [
  { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: [tool] } }] },
  { toolCalls: [{ id: "call", name: tool, arguments: { text } }] },
  { text: "done" },
];

Deno.test("a server in your own mcp.json is used in a run without a trust question", async () => {
  await using project = await tempProject();
  await Deno.mkdir(logFolder(project.root));
  const marker = crypto.randomUUID();
  const server = { ...fixtureServer(project.root, "mine"), env: { HEL_TEST_MARKER: marker } };
  await Deno.writeTextFile(
    userFile(project),
    `// mine, in every project\n${JSON.stringify({ servers: { mine: server } }, null, 2)}\n`,
  );
  await using model = scriptedModel(loadAndCall("mcp__mine__echo", "from my own file"));
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /trust|mcp\.json|skipped/, "no trust question, no warning");
  assert.match(systemText(model.requests[0]!), /^- mcp__mine__echo: Echo text back\.$/m);
  // The result is in the request the model received next.
  assert.equal(toolMessage(model, "call"), "from my own file");
  assert.deepEqual(await receivedCalls(logOf(project, "mine")), [
    { name: "echo", arguments: { text: "from my own file" } },
  ]);
  assert.equal(model.remaining(), 0);
  await assertNoServerLeft({ ...project, marker, logPath: (name) => logOf(project, name) });
});

function logOf(project: TempProject, name: string): string {
  return `${logFolder(project.root)}/${name}.jsonl`;
}

Deno.test("a name in both files runs the project's entry, with one warning naming both", async () => {
  await using project = await mcpProject((root) => ({ t: fixtureServer(root, "project") }));
  await Deno.writeTextFile(
    userFile(project),
    JSON.stringify({
      servers: {
        t: fixtureServer(project.root, "user"),
        mine: fixtureServer(project.root, "mine"),
      },
    }),
  );
  await using model = scriptedModel(loadAndCall("mcp__t__echo", "which one"));
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  const warning = `hel: warning: MCP server t is configured in both ${
    userFile(project)
  } and .hel/mcp.json; the project's entry is used (remove one, or rename it, to silence this)\n`;
  assert.equal(result.stderr.split(warning).length, 2, result.stderr);
  assert.equal(toolMessage(model, "call"), "which one");
  assert.deepEqual(await receivedCalls(project.logPath("project")), [
    { name: "echo", arguments: { text: "which one" } },
  ]);
  assert.deepEqual(await readLog(project.logPath("user")), [], "the person's t never started");
  // The person's other server runs beside the project's.
  assert.match(systemText(model.requests[0]!), /^- mcp__mine__echo: /m);

  const list = await runHelInProcess([...FAST, "mcp", "list"], { cwd: project.project });
  assert.equal(list.code, 0, list.stderr);
  assert.ok(list.stdout.includes(`warning: ${warning.slice("hel: warning: ".length)}`));
  assert.match(
    list.stdout,
    /^t: connected, .*\n {2}command: .* --log \S+\/project\.jsonl\n {2}from: \.hel\/mcp\.json\n/m,
  );
  assert.match(
    list.stdout,
    new RegExp(`^mine: connected, .*\\n.*\\n {2}from: ${userFile(project)}\\n`, "m"),
  );
  await assertNoServerLeft(project);
});

Deno.test("an untrusted project file leaves your own servers running", async () => {
  await using project = await mcpProject((root) => ({ p: fixtureServer(root, "p") }), {
    trusted: false,
  });
  await Deno.writeTextFile(
    userFile(project),
    JSON.stringify({ servers: { mine: fixtureServer(project.root, "mine") } }),
  );
  await using model = scriptedModel([{ text: "done" }]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /\.hel\/mcp\.json is not trusted for this project and there is no terminal to ask, so no MCP server was started from it/,
  );
  const system = systemText(model.requests[0]!);
  assert.match(system, /^- mcp__mine__echo: /m);
  assert.doesNotMatch(system, /mcp__p__/);
  assert.deepEqual(await readLog(project.logPath("p")), []);
});

Deno.test("a broken mcp.json of yours is named with line and column; the project's servers still start", async () => {
  await using project = await mcpProject((root) => ({ p: fixtureServer(root, "p") }));
  await Deno.writeTextFile(userFile(project), '{\n  "servers": {\n    "x": {"args": []}\n  }\n}\n');
  await using model = scriptedModel([{ text: "done" }]);
  const result = await helMcpInProcess(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(
    result.stderr.includes(
      `hel: warning: ${userFile(project)} is invalid, so no MCP server was started from it:\n` +
        `  ${userFile(project)}:3:10: servers."x" needs a "command" (a program hel starts), ` +
        `e.g. "command": "python3", or a "url" (a remote server), e.g. ` +
        `"url": "https://mcp.example.com/mcp"\n`,
    ),
    result.stderr,
  );
  assert.match(systemText(model.requests[0]!), /^- mcp__p__echo: /m);
  await assertNoServerLeft(project);
});

Deno.test("the trust review says which file a server comes from and that it replaces yours", async () => {
  await using project = await mcpProject((root) => ({ t: fixtureServer(root, "project") }), {
    trusted: false,
  });
  await Deno.writeTextFile(
    userFile(project),
    JSON.stringify({ servers: { t: fixtureServer(project.root, "user") } }),
  );
  await using model = scriptedModel([{ text: "done" }]);
  const run = helOnTerminal(project, [...modelArgs(model), "--tools", "read_file", ...FAST, "go"]);
  await run.waitFor("Trust this project's MCP configuration? [y/N]");
  assert.match(
    run.output(),
    /^server "t" from \.hel\/mcp\.json, replacing yours · sandbox: on\r$/m,
  );
  await run.type("y\n");
  const finished = await run.finish();
  assert.equal(finished.code, 0, finished.output);
  assert.match(finished.output, /MCP server t is configured in both \S+\/hel-home\/mcp\.json and/);
  assert.deepEqual(await readLog(project.logPath("user")), []);
  await assertNoServerLeft(project);
});
