/** Unit tests of the plugin driver: each hook kind, what a throw means for it, and order. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PluginHookError } from "./errors.ts";
import type { HelEvent } from "./events.ts";
import type { Plugin } from "./plugin.ts";
import type { PluginHooks } from "./plugin_hooks.ts";
import { PluginDriver, type RunHost, type StartedPlugin } from "./plugin_driver.ts";
import type { ChatMessage, Tool, ToolCallInfo } from "./types.ts";

const host = {} as RunHost;
const call: ToolCallInfo = { callId: "c1", name: "bash", args: {}, tool: {} as Tool };
const boom = (text: string) => () => {
  throw new Error(text);
};

function driver(...started: [string, PluginHooks][]) {
  const warnings: string[] = [];
  const plugins: StartedPlugin[] = started.map(([name, hooks]) => ({ name, hooks }));
  return { driver: new PluginDriver((text) => warnings.push(text), plugins), warnings };
}

test("start(): every setup in order, then every ready, so ready sees all registrations", async () => {
  const log: string[] = [];
  const plugin = (name: string): Plugin => ({
    name,
    description: "",
    hooks: ["ready"],
    setup: () => {
      log.push(`setup ${name}`);
      return { ready: () => void log.push(`ready ${name}`) };
    },
  });
  await new PluginDriver(() => {}).start([plugin("a"), plugin("b")], host);
  assert.deepEqual(log, ["setup a", "setup b", "ready a", "ready b"]);
});

test("start(): a throw in setup or ready is fatal and names plugin and hook", async () => {
  const cause = new Error("no config");
  const failing: Plugin = { name: "bad", description: "", setup: () => Promise.reject(cause) };
  const error = await new PluginDriver(() => {}).start([failing], host).then(
    () => assert.fail("setup should fail"),
    (error) => error,
  );
  assert.ok(error instanceof PluginHookError);
  assert.equal(error.message, "plugin bad failed in setup: no config");
  assert.deepEqual([error.plugin, error.hook, error.cause], ["bad", "setup", cause]);
  const late: Plugin = {
    name: "late",
    description: "",
    hooks: ["ready"],
    setup: () => ({ ready: boom("tools missing") }),
  };
  await assert.rejects(
    () => new PluginDriver(() => {}).start([late], host),
    /^PluginHookError: plugin late failed in ready: tools missing$/,
  );
});

test("start(): a hook the plugin does not declare is a setup error, so plugins list is true", async () => {
  const sly: Plugin = {
    name: "sly",
    description: "",
    hooks: ["observe"],
    setup: () => ({ observe: () => {}, beforeToolCall: () => Promise.resolve() }),
  };
  await assert.rejects(
    () => new PluginDriver(() => {}).start([sly], host),
    /plugin sly failed in setup: it returned beforeToolCall, which its hooks list does not name/,
  );
  const undeclaredStop: Plugin = {
    name: "stops",
    description: "",
    setup: (own) => own.onShutdown(() => {}),
  };
  await assert.rejects(
    () => new PluginDriver(() => {}).start([undeclaredStop], host),
    /plugin stops failed in setup: onShutdown needs "shutdown"/,
  );
});

test("shutdown(): last registered first, also what a failed setup started; a throw is a warning; once only", async () => {
  const log: string[] = [];
  const warnings: string[] = [];
  const plugin = (name: string, fail?: string): Plugin => ({
    name,
    description: "",
    hooks: ["shutdown"],
    setup: (own) => {
      own.onShutdown(() => {
        log.push(`stop ${name}`);
        if (name === "b") throw new Error("already gone");
      });
      if (fail) throw new Error(fail);
    },
  });
  const plugins = new PluginDriver((text) => warnings.push(text));
  await assert.rejects(
    () => plugins.start([plugin("a"), plugin("b"), plugin("c", "port taken")], host),
    /plugin c failed in setup: port taken/,
  );
  await Promise.all([plugins.shutdown(), plugins.shutdown()]);
  await plugins.shutdown();
  assert.deepEqual(log, ["stop c", "stop b", "stop a"]);
  assert.deepEqual(warnings, ["plugin b failed in shutdown: already gone"]);
});

test("systemSections() and toolDefinitions(): each in order; a throw is a warning and leaves the plugin out", () => {
  const definition = (name: string) => ({
    type: "function" as const,
    function: { name, description: name, parameters: {} },
  });
  const { driver: plugins, warnings } = driver(
    ["a", { systemPrompt: () => "A\n", toolDefinitions: () => [definition("a1")] }],
    ["blank", { systemPrompt: () => "  " }],
    ["bad", { systemPrompt: boom("no catalog"), toolDefinitions: boom("not ready") }],
    ["none", { systemPrompt: () => undefined }],
    ["b", { systemPrompt: () => "B", toolDefinitions: () => [definition("b1")] }],
  );
  assert.deepEqual(plugins.systemSections(), ["A\n", "B"]);
  assert.deepEqual(plugins.toolDefinitions().map((d) => d.function.name), ["a1", "b1"]);
  assert.deepEqual(warnings, [
    "plugin bad failed in systemPrompt: no catalog",
    "plugin bad failed in toolDefinitions: not ready",
  ]);
});

test("lookupTool(): the first answer wins; a throw is a warning and the next plugin is asked", () => {
  const asked: string[] = [];
  const answer = (name: string): PluginHooks => ({
    lookupTool: () => {
      asked.push(name);
      return { kind: "not-loaded", message: `${name} knows it` };
    },
  });
  const { driver: plugins, warnings } = driver(
    ["bad", { lookupTool: boom("index out of range") }],
    ["silent", { lookupTool: () => undefined }],
    ["first", answer("first")],
    ["second", answer("second")],
  );
  assert.deepEqual(plugins.lookupTool("x"), { kind: "not-loaded", message: "first knows it" });
  assert.deepEqual(asked, ["first"]);
  assert.deepEqual(warnings, ["plugin bad failed in lookupTool for x: index out of range"]);
});

test("beforeToolCall(): the first block wins and the rest do not see the call", async () => {
  const seen: string[] = [];
  const watch = (name: string): PluginHooks => ({
    beforeToolCall: () => Promise.resolve(void seen.push(name)),
  });
  const { driver: plugins } = driver(
    ["pass", watch("pass")],
    ["block", { beforeToolCall: () => Promise.resolve({ block: "not today" }) }],
    ["after", watch("after")],
  );
  assert.deepEqual(await plugins.beforeToolCall(call), { block: "not today" });
  assert.deepEqual(seen, ["pass"]);
  assert.equal(await driver(["pass", watch("pass")]).driver.beforeToolCall(call), undefined);
});

test("beforeToolCall(): a throw blocks the call (fail closed), naming plugin and hook to the model", async () => {
  const seen: string[] = [];
  const { driver: plugins, warnings } = driver(
    ["guard", { beforeToolCall: () => Promise.reject("policy unreadable") }],
    ["after", { beforeToolCall: () => Promise.resolve(void seen.push("after")) }],
  );
  const decision = await plugins.beforeToolCall(call);
  assert.match(
    decision?.block ?? "",
    /^plugin guard failed in beforeToolCall for bash: policy unreadable\. The call was blocked/,
  );
  assert.deepEqual(seen, []);
  assert.deepEqual(warnings, [
    "plugin guard failed in beforeToolCall for bash: policy unreadable; the call was blocked",
  ]);
});

test("afterToolCall(): a chain; a throw is a warning and the result passes on unchanged", async () => {
  const tag = (name: string): PluginHooks => ({
    afterToolCall: (_call, result) => Promise.resolve({ ok: true, text: `${result.text}+${name}` }),
  });
  const { driver: plugins, warnings } = driver(
    ["a", tag("a")],
    ["bad", { afterToolCall: () => Promise.reject(new Error("disk full")) }],
    ["keep", { afterToolCall: () => Promise.resolve() }],
    ["b", tag("b")],
  );
  assert.deepEqual(await plugins.afterToolCall(call, { ok: true, text: "out" }), {
    ok: true,
    text: "out+a+b",
  });
  assert.deepEqual(warnings, ["plugin bad failed in afterToolCall for bash: disk full"]);
});

test("afterCompaction(): each in order, each budget counting the messages before it", () => {
  const budgets: number[] = [];
  const note = (text: string): ChatMessage => ({ role: "user", content: text });
  const region = (text: string): PluginHooks => ({
    afterCompaction: (_messages, budget) => {
      budgets.push(budget);
      return [note(text)];
    },
  });
  const { driver: plugins, warnings } = driver(
    ["a", region("a")],
    ["bad", { afterCompaction: boom("lost") }],
    ["b", region("b")],
  );
  const result = plugins.afterCompaction([], (messages) => 100 - messages.length * 10);
  assert.deepEqual(result, [note("a"), note("b")]);
  assert.deepEqual(budgets, [100, 90]);
  assert.deepEqual(warnings, ["plugin bad failed in afterCompaction: lost"]);
});

test("saveStates() keeps what JSON keeps; restoreStates() hands back each plugin's own", () => {
  const restored: unknown[] = [];
  const { driver: plugins, warnings } = driver(
    ["a", { saveState: () => ({ when: new Date(0), gone: undefined }) }],
    ["none", { saveState: () => undefined }],
    ["bad", { saveState: () => ({ big: 1n }), restoreState: boom("unknown version") }],
    ["b", { restoreState: (state) => void restored.push(state) }],
    ["c", { restoreState: (state) => void restored.push(state) }],
  );
  assert.deepEqual(plugins.saveStates(), { a: { when: "1970-01-01T00:00:00.000Z" } });
  assert.match(warnings[0]!, /^plugin bad failed in saveState: .*BigInt/);
  plugins.restoreStates({ bad: 1, b: { n: 2 } });
  assert.deepEqual(restored, [{ n: 2 }], "c saved nothing, so it is not restored");
  assert.equal(warnings[1], "plugin bad failed in restoreState: unknown version; it starts afresh");
});

test("observe(): every observer in order; one that throws is reported once and keeps observing", () => {
  const seen: string[] = [];
  const event: HelEvent = { type: "warning", text: "x" };
  const { driver: plugins, warnings } = driver(
    ["bad", {
      observe: () => {
        seen.push("bad");
        throw new Error("no file");
      },
    }],
    ["good", { observe: (e) => void seen.push(`good ${e.type}`) }],
  );
  plugins.observe(event);
  plugins.observe(event);
  assert.deepEqual(seen, ["bad", "good warning", "bad", "good warning"]);
  assert.deepEqual(warnings, ["plugin bad failed in observe: no file"]);
});

test("status(): each plugin's lines in order; one that throws is a warning and shows nothing", () => {
  const { driver: plugins, warnings } = driver(
    ["mcp", { status: () => ["fs: connected, 3 tools"] }],
    ["quiet", { status: () => [] }],
    ["bad", { status: boom("no servers") }],
    ["skills", { status: () => ["2 skills"] }],
  );
  assert.deepEqual(plugins.status(), [
    { plugin: "mcp", lines: ["fs: connected, 3 tools"] },
    { plugin: "skills", lines: ["2 skills"] },
  ]);
  assert.deepEqual(warnings, ["plugin bad failed in status: no servers"]);
});
