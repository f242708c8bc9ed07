/**
 * What hel sends over Streamable HTTP, seen by an SDK server with sessions of our own
 * (fixtures/mcp/session_server.ts) that logs every HTTP request, through the real CLI and the
 * scripted model: the session id the server assigned goes with every later request and a
 * DELETE ends it at shutdown; a stream the server closes mid-call is resumed with
 * `Last-Event-ID`; a list change announced over HTTP reaches the model; a
 * call past its timeout is cancelled (`notifications/cancelled` in the same session); a server
 * that forgot the session is reconnected with a new one.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject, toolMessage } from "../_helpers.ts";
import { helMcpInProcess, readLog, trustMcp } from "../_mcp.ts";
import { startHttpFixture } from "../_sdk_server.ts";

interface Logged {
  http?: string;
  session?: string;
  lastEventId?: string;
  messages?: { method?: string; id?: number; params?: Record<string, unknown> }[];
  sessionStarted?: string;
}

const tool = (name: string) => `mcp__api__${name}`;
const load = (...names: string[]) => ({
  toolCalls: [{ name: "load_mcp_tool", arguments: { names: names.map(tool) } }],
});
const call = (id: string, name: string, args: Record<string, unknown> = {}) => ({
  toolCalls: [{ id, name: tool(name), arguments: args }],
});

/** A trusted project whose server `api` is the session fixture; `extra` joins its entry. */
async function sessionProject(extra: Record<string, unknown> = {}) {
  const project = await tempProject();
  const server = await startHttpFixture("session_server.ts", `${project.root}/http.jsonl`);
  await project.write(
    ".hel/mcp.json",
    JSON.stringify({ servers: { api: { url: server.url, ...extra } } }),
  );
  await trustMcp(project);
  return {
    project,
    log: async () => (await readLog(server.log)) as Logged[],
    async [Symbol.asyncDispose]() {
      await server[Symbol.asyncDispose]();
      await project[Symbol.asyncDispose]();
    },
  };
}

Deno.test("over Streamable HTTP: the session id goes with every request and a DELETE ends it; a closed stream is resumed with Last-Event-ID; a list change reaches the model", async () => {
  await using setup = await sessionProject();
  await using model = scriptedModel([
    load("whoami", "resume", "add_tool"),
    call("who", "whoami"),
    call("resume", "resume"),
    call("add", "add_tool"),
    load("added"),
    call("added", "added"),
    { text: "done" },
  ]);
  const result = await helMcpInProcess(setup.project, model);
  assert.equal(result.code, 0, result.stderr);

  const log = await setup.log();
  const started = log.flatMap((e) => e.sessionStarted ? [e.sessionStarted] : []);
  assert.equal(started.length, 1, "one session for the whole run");
  const [session] = started;
  assert.equal(toolMessage(model, "who"), `session ${session}`);
  const requests = log.filter((e) => e.http);
  const initialize = requests.findIndex((e) => e.messages?.[0]?.method === "initialize");
  assert.equal(requests[initialize]!.session, undefined);
  const later = requests.slice(initialize + 1);
  assert.ok(later.length > 5);
  assert.deepEqual(later.filter((e) => e.session !== session), [], "every later request");
  assert.equal(later.at(-1)!.http, "DELETE", "the session is ended at shutdown");

  // The server closed the stream of the resume call; hel came back for its answer.
  assert.equal(toolMessage(model, "resume"), "resumed");
  const resumed = later.filter((e) => e.http === "GET" && e.lastEventId !== undefined);
  assert.equal(resumed.length, 1, JSON.stringify(later.filter((e) => e.http === "GET")));

  // The change was announced, listed again and offered.
  assert.equal(toolMessage(model, "added"), "the added tool answers");
  const changed = model.requests[4]!.messages.map((m) => String(m.content)).join("\n");
  assert.match(changed, /\[hel: MCP servers changed[^\n]*\n?[\s\S]*mcp__api__added/);
  assert.equal(model.remaining(), 0);
});

Deno.test("over Streamable HTTP: a call past its timeout is cancelled in its session", async () => {
  await using setup = await sessionProject({ timeout: 1 });
  await using model = scriptedModel([
    load("slow", "whoami"),
    call("slow", "slow", { seconds: 30 }),
    call("after", "whoami"),
    { text: "done" },
  ]);
  const result = await helMcpInProcess(setup.project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    toolMessage(model, "slow"),
    /^error: MCP request tools\/call to api timed out after 1 second; the request was cancelled and the server keeps running/,
  );
  const log = await setup.log();
  const [session] = log.flatMap((e) => e.sessionStarted ? [e.sessionStarted] : []);
  assert.equal(toolMessage(model, "after"), `session ${session}`);
  const posted = log.filter((e) => e.http === "POST").flatMap((e) =>
    e.messages!.map((m) => ({ ...m, session: e.session }))
  );
  const slow = posted.find((m) => m.method === "tools/call" && m.params?.name === "slow")!;
  const cancels = posted.filter((m) => m.method === "notifications/cancelled");
  assert.deepEqual(
    cancels.map((m) => [m.params?.requestId, m.session]),
    [[slow.id, session]],
  );
  assert.equal(model.remaining(), 0);
});

Deno.test("over Streamable HTTP: a call the server refused because it forgot the session (404) is sent again in a new session", async () => {
  await using setup = await sessionProject();
  await using model = scriptedModel([
    load("forget", "whoami"),
    call("forget", "forget"),
    call("lost", "whoami"),
    call("again", "whoami"),
    { text: "done" },
  ]);
  const result = await helMcpInProcess(setup.project, model);
  assert.equal(result.code, 0, result.stderr);
  const log = await setup.log();
  const started = log.flatMap((e) => e.sessionStarted ? [e.sessionStarted] : []);
  assert.equal(started.length, 2);
  const [old, renewed] = started;
  assert.equal(toolMessage(model, "forget"), "forgotten");
  // The model gets the tool's answer from the new session, not an error.
  assert.equal(toolMessage(model, "lost"), `session ${renewed}`);
  assert.equal(toolMessage(model, "again"), `session ${renewed}`);

  const requests = log.filter((e) => e.http);
  // No DELETE for the session the server forgot; the new one is ended at shutdown.
  assert.deepEqual(requests.filter((e) => e.http === "DELETE").map((e) => e.session), [renewed]);
  const posted = requests.filter((e) => e.http === "POST").flatMap((e) =>
    e.messages!.map((m) => ({ ...m, session: e.session }))
  );
  const whoami = posted.flatMap((m, i) =>
    m.method === "tools/call" && m.params?.name === "whoami" ? [{ at: i, session: m.session }] : []
  );
  // Refused in the old session, sent once in the new one, then the next call.
  assert.deepEqual(whoami.map((m) => m.session), [old, renewed, renewed]);
  const initialize = posted.findLastIndex((m) => m.method === "initialize");
  assert.equal(posted[initialize]!.session, undefined);
  assert.ok(whoami[0]!.at < initialize && initialize < whoami[1]!.at, "the new initialize between");

  // The model is told once that the server was reconnected and the call sent again.
  const notes = [
    ...new Set(
      model.requests.flatMap((r) => r.messages).map((m) => String(m.content))
        .filter((text) => /was restarted/.test(text)),
    ),
  ];
  assert.equal(notes.length, 1);
  assert.match(
    notes[0]!,
    /MCP server api was restarted \(it no longer knows hel's session \(HTTP 404\); restart 1 of at most 3 in this run\)[^\n]*The call it had refused was sent again once it was back\./,
  );
  assert.equal(model.remaining(), 0);
});
