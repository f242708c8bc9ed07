import assert from "node:assert/strict";
import { test } from "node:test";
import type { HelEvent } from "./events.ts";
import type { Approval, ApprovalRequest } from "./permissions.ts";
import { PluginDriver, type StartedPlugin } from "./plugin_driver.ts";
import { ToolRegistry } from "./tool_registry.ts";
import { executeToolCall, type ToolCallDeps } from "./tool_call.ts";
import { defineTool } from "./define_tool.ts";
import { z } from "zod";
import type { AccessLevel, Tool, ToolClass } from "./types.ts";

function tool(name: string, toolClass: ToolClass, log: string[], ok = true): Tool {
  return {
    name,
    description: name,
    parameters: { type: "object" },
    toolClass,
    category: "other",
    run: (args) => {
      log.push(`run ${name} ${JSON.stringify(args)}`);
      return Promise.resolve({ ok, text: `${name} says ${ok ? "hi" : "no"}` });
    },
  };
}

function deps(
  tools: Tool[],
  options: { access?: AccessLevel; plugins?: StartedPlugin[]; answers?: Approval[] } = {},
) {
  const events: HelEvent[] = [];
  const answers = [...(options.answers ?? [])];
  const plugins = new PluginDriver(
    (text) => events.push({ type: "warning", text }),
    options.plugins ?? [],
  );
  const registry = new ToolRegistry(plugins);
  for (const t of tools) registry.register(t);
  const d: ToolCallDeps = {
    tools: registry,
    plugins,
    access: options.access ?? "auto",
    approver: {
      approve: () => Promise.resolve({ approval: answers.shift() ?? "unavailable" }),
    },
    spill: undefined,
    emit: (event) => events.push(event),
  };
  return { d, events };
}

const call = (name: string, args = "{}") => ({
  id: "c1",
  type: "function" as const,
  function: { name, arguments: args },
});
const signal = new AbortController().signal;

test("executeToolCall() refuses an unknown tool without running anything", async () => {
  const log: string[] = [];
  const { d, events } = deps([tool("echo", "read", log)]);
  const outcome = await executeToolCall(call("nope"), d, signal);
  assert.equal(outcome.ok, false);
  assert.match(outcome.content, /^error: unknown tool: nope/);
  assert.deepEqual(log, []);
  assert.equal(events.find((e) => e.type === "permission")?.type, "permission");
});

test("executeToolCall() names a near tool for a misspelt name, and runs neither", async () => {
  const log: string[] = [];
  const { d } = deps([tool("read_file", "read", log)]);
  const outcome = await executeToolCall(call("read_files"), d, signal);
  assert.match(outcome.content, /\(tool names are exact: did you mean read_file\?\)$/);
  const far = await executeToolCall(call("run_shell"), d, signal);
  assert.doesNotMatch(far.content, /did you mean/);
  assert.deepEqual(log, []);
});

test("executeToolCall() tells the model how to fix arguments that are not JSON", async () => {
  const log: string[] = [];
  const { d } = deps([tool("echo", "read", log)]);
  const outcome = await executeToolCall(call("echo", "{oops"), d, signal);
  assert.match(outcome.content, /^error: echo: arguments are not valid JSON .*send the arguments/);
  const arrayArgs = await executeToolCall(call("echo", "[1]"), d, signal);
  assert.match(arrayArgs.content, /must be a JSON object/);
  assert.deepEqual(log, []);
});

test("executeToolCall() checks arguments before hooks and the question; run gets the checked ones", async () => {
  const log: string[] = [];
  const seen: unknown[] = [];
  const zodTool = defineTool({
    name: "typed",
    description: "",
    parameters: z.strictObject({ path: z.string(), limit: z.int().optional() }),
    toolClass: "write",
    category: "other",
    run: (args) => {
      log.push(`run typed ${JSON.stringify(args)}`);
      return Promise.resolve({ ok: true, text: "ran" });
    },
  });
  const schemaTool: Tool = {
    ...tool("raw", "write", log),
    parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
  };
  const watcher: StartedPlugin = {
    name: "watcher",
    hooks: {
      beforeToolCall: (info) => {
        seen.push(info.args);
        return Promise.resolve();
      },
    },
  };
  const { d } = deps([zodTool, schemaTool], {
    access: "confirm",
    plugins: [watcher],
    answers: ["approved", "approved"],
  });
  const fix = ". Send the call again with all of these fixed";
  const bad = await executeToolCall(call("typed", '{"limit":"2","x":1}'), d, signal);
  assert.equal(
    bad.content,
    "error: typed: the arguments do not fit the tool's parameters: path is required but " +
      `missing; limit must be an integer, not string; unknown argument x (this tool takes path, ` +
      `limit)${fix}`,
  );
  const badRaw = await executeToolCall(call("raw", '{"n":"1"}'), d, signal);
  assert.equal(
    badRaw.content,
    `error: raw: the arguments do not fit the tool's parameters: n must be an integer, not string${fix}`,
  );
  assert.deepEqual(seen, []);
  assert.deepEqual(log, []);
  assert.equal(
    (await executeToolCall(call("typed", '{"path":"a","limit":null}'), d, signal)).ok,
    true,
  );
  assert.equal((await executeToolCall(call("raw", '{"n":1}'), d, signal)).ok, true);
  assert.deepEqual(seen, [{ path: "a" }, { n: 1 }]);
  assert.deepEqual(log, ['run typed {"path":"a"}', 'run raw {"n":1}']);
});

test("executeToolCall() applies the access level: read-only denies, confirm asks once per call", async () => {
  const log: string[] = [];
  const tools = [tool("write", "write", log), tool("look", "read", log)];
  const readOnly = deps(tools, { access: "read-only" });
  assert.match(
    (await executeToolCall(call("write"), readOnly.d, signal)).content,
    /^error: permission denied: write \(access=read-only/,
  );
  assert.equal((await executeToolCall(call("look"), readOnly.d, signal)).ok, true);

  const confirm = deps(tools, { access: "confirm", answers: ["approved", "denied"] });
  assert.equal((await executeToolCall(call("write"), confirm.d, signal)).ok, true);
  const denied = await executeToolCall(call("write"), confirm.d, signal);
  assert.match(denied.content, /approval=denied.*declined/);
  const unavailable = await executeToolCall(call("write"), confirm.d, signal);
  assert.match(unavailable.content, /approval=unavailable/);
  assert.deepEqual(log, ["run look {}", "run write {}"]);
});

test("executeToolCall() lets a before-call plugin block before the permission question", async () => {
  const log: string[] = [];
  let asked = 0;
  const blocker: StartedPlugin = {
    name: "blocker",
    hooks: { beforeToolCall: (info) => Promise.resolve({ block: `blocked ${info.name}` }) },
  };
  const { d, events } = deps([tool("write", "write", log)], {
    access: "confirm",
    plugins: [blocker],
  });
  d.approver = {
    approve: () => {
      asked++;
      return Promise.resolve({ approval: "approved" });
    },
  };
  const outcome = await executeToolCall(call("write"), d, signal);
  assert.equal(outcome.content, "error: blocked write");
  assert.equal(asked, 0);
  assert.deepEqual(log, []);
  const permission = events.find((e) => e.type === "permission");
  assert.equal(permission?.type === "permission" && permission.hookBlocked, true);
});

test("executeToolCall() asks with the tool's description and sends the person's 'instead' to the model", async () => {
  const log: string[] = [];
  const shell: Tool = {
    ...tool("shell", "execute", log),
    describeCall: (args) =>
      Promise.resolve({
        preview: { kind: "command", command: String(args.command), cwd: "/p" },
        scope: { kind: "command", tool: "shell", prefix: "npm test" },
      }),
  };
  const { d, events } = deps([shell], { access: "confirm" });
  const requests: ApprovalRequest[] = [];
  d.approver = {
    approve: (request) => {
      requests.push(request);
      return Promise.resolve({ approval: "denied", instead: "  use yarn test instead  " });
    },
  };
  const outcome = await executeToolCall(call("shell", '{"command":"npm test"}'), d, signal);
  assert.deepEqual(requests, [{
    toolName: "shell",
    args: { command: "npm test" },
    preview: { kind: "command", command: "npm test", cwd: "/p" },
    scope: { kind: "command", tool: "shell", prefix: "npm test" },
  }]);
  assert.equal(outcome.ok, false);
  assert.equal(
    outcome.content,
    "error: permission denied: shell (access=confirm, approval=denied): the user declined " +
      "this call. The user says what to do instead: use yarn test instead",
  );
  assert.deepEqual(log, []);
  const finished = events.find((e) => e.type === "tool_call");
  assert.equal(finished?.type === "tool_call" && finished.status, "declined");
});

test("executeToolCall() chains after-call plugins on success only", async () => {
  const log: string[] = [];
  const append = (tag: string): StartedPlugin => ({
    name: tag,
    hooks: {
      afterToolCall: (_info, result) =>
        Promise.resolve({ ok: true, text: `${result.text}+${tag}` }),
    },
  });
  const { d } = deps([tool("good", "read", log), tool("bad", "read", log, false)], {
    plugins: [append("a"), append("b")],
  });
  assert.equal((await executeToolCall(call("good"), d, signal)).content, "good says hi+a+b");
  assert.equal((await executeToolCall(call("bad"), d, signal)).content, "error: bad says no");
});

test("executeToolCall() passes a result's media on, past an after-call plugin that adds text", async () => {
  const media = [{
    kind: "image" as const,
    mimeType: "image/png",
    data: "iVBORw0KGgo=",
    bytes: 8,
    marker: "[image: image/png, 8 B]",
  }];
  const shot: Tool = {
    ...tool("shot", "read", []),
    run: () => Promise.resolve({ ok: true, text: "[image: image/png, 8 B]", media }),
  };
  const note: StartedPlugin = {
    name: "note",
    hooks: {
      afterToolCall: (_info, result) =>
        Promise.resolve({ ok: true, text: `${result.text}\nnoted` }),
    },
  };
  const { d } = deps([shot], { plugins: [note] });
  assert.deepEqual(await executeToolCall(call("shot"), d, signal), {
    ok: true,
    content: "[image: image/png, 8 B]\nnoted",
    media,
  });
  // A result without media has none.
  const { d: plain } = deps([tool("echo", "read", [])]);
  assert.equal("media" in await executeToolCall(call("echo"), plain, signal), false);
});

test("executeToolCall() routes not-loaded names to the owning plugin's message", async () => {
  const owner: StartedPlugin = {
    name: "owner",
    hooks: {
      lookupTool: (name) =>
        name === "ext__x" ? { kind: "not-loaded", message: "ext__x is not loaded" } : undefined,
    },
  };
  const { d } = deps([], { plugins: [owner] });
  assert.equal(
    (await executeToolCall(call("ext__x"), d, signal)).content,
    "error: ext__x is not loaded",
  );
});

test("executeToolCall() warns about a plugin whose lookupTool throws and asks the next", async () => {
  const broken: StartedPlugin = {
    name: "broken",
    hooks: {
      lookupTool: () => {
        throw new Error("index out of range");
      },
    },
  };
  const owner: StartedPlugin = {
    name: "owner",
    hooks: { lookupTool: (name) => ({ kind: "tool", tool: tool(name, "read", []) }) },
  };
  const { d, events } = deps([], { plugins: [broken, owner] });
  const outcome = await executeToolCall(call("ext__x"), d, signal);
  assert.deepEqual(outcome, { ok: true, content: "ext__x says hi" });
  assert.ok(events.some((event) =>
    event.type === "warning" &&
    event.text === "plugin broken failed in lookupTool for ext__x: index out of range"
  ));
});

test("executeToolCall() blocks the call when a before-call plugin throws, naming it to the model", async () => {
  const log: string[] = [];
  const broken: StartedPlugin = {
    name: "guard",
    hooks: { beforeToolCall: () => Promise.reject(new Error("policy file unreadable")) },
  };
  const later: string[] = [];
  const after: StartedPlugin = {
    name: "after",
    hooks: { beforeToolCall: (info) => Promise.resolve(void later.push(info.name)) },
  };
  const { d, events } = deps([tool("write", "write", log)], { plugins: [broken, after] });
  const outcome = await executeToolCall(call("write"), d, signal);
  assert.equal(outcome.ok, false);
  assert.match(
    outcome.content,
    /^error: plugin guard failed in beforeToolCall for write: policy file unreadable\. The call was blocked/,
  );
  assert.deepEqual(log, [], "the tool did not run");
  assert.deepEqual(later, [], "the plugins after the failed one do not see the call");
  const permission = events.find((e) => e.type === "permission");
  assert.equal(permission?.type === "permission" && permission.hookBlocked, true);
  assert.ok(events.some((event) =>
    event.type === "warning" &&
    event.text === "plugin guard failed in beforeToolCall for write: policy file unreadable; " +
        "the call was blocked"
  ));
});

test("executeToolCall() turns a throwing tool into an error result", async () => {
  const { d } = deps([{
    ...tool("boom", "read", []),
    run: () => Promise.reject(new Error("kaput")),
  }]);
  assert.equal(
    (await executeToolCall(call("boom"), d, signal)).content,
    "error: boom failed unexpectedly: kaput. This is a fault in hel or a plugin, not in your " +
      "call; try another way, or tell the user what failed",
  );
});

test("executeToolCall() passes a tool's live output on as events between its start and its end", async () => {
  const streaming: Tool = {
    ...tool("stream", "read", []),
    run: (_args, context) => {
      context.onOutput?.("one\n");
      context.onOutput?.("two\n");
      return Promise.resolve({ ok: true, text: "one\ntwo\n" });
    },
  };
  const { d, events } = deps([streaming]);
  await executeToolCall(call("stream"), d, signal);
  assert.deepEqual(
    events.flatMap((e) =>
      e.type === "tool_start" || e.type === "tool_call"
        ? [`${e.type} ${e.callId}`]
        : e.type === "tool_output"
        ? [`${e.type} ${e.callId} ${e.text}`]
        : []
    ),
    ["tool_start c1", "tool_output c1 one\n", "tool_output c1 two\n", "tool_call c1"],
  );
});

test("executeToolCall() spills a large result and keeps head and tail", async () => {
  const saved: string[] = [];
  const big = "H".repeat(5000) + "x".repeat(60_000) + "T".repeat(2000);
  const { d } = deps([{
    ...tool("big", "read", []),
    run: () => Promise.resolve({ ok: true, text: big }),
  }]);
  d.spill = (text) => {
    saved.push(text);
    return Promise.resolve("/p/.hel/sessions/s/spill/f.txt");
  };
  const outcome = await executeToolCall(call("big"), d, signal);
  assert.equal(saved[0], big);
  assert.ok(outcome.content.startsWith("H".repeat(4096) + "\n\n[Result too large"));
  assert.ok(outcome.content.endsWith("T".repeat(1024)));
  assert.match(outcome.content, /saved at \/p\/\.hel\/sessions\/s\/spill\/f\.txt/);
});
