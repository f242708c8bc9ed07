/** Unit tests of the compaction policy and the compactor, with a fake model. */
import assert from "node:assert/strict";
import {
  conversationTokens,
  defaultPolicy,
  isCheckpoint,
  policyFromFlags,
  PRUNE_OVER_CHARS,
  selectTail,
} from "./plan.ts";
import { createCompactor } from "./driver.ts";
import { scriptedClient, type ScriptTurn } from "../../fixtures/scripted_client.ts";
import { PluginDriver, type StartedPlugin } from "../../core/plugin_driver.ts";
import type { CompactionEvent } from "../../core/events.ts";
import type { ChatMessage, ToolDefinition } from "../../core/types.ts";
import { emptyUsage } from "../../core/usage.ts";

Deno.test("default policy from the context window and the output reservation", () => {
  assert.deepEqual(defaultPolicy(1_000_000, 8192), { at: 800_000, keepRecent: 158_689 });
  assert.equal(defaultPolicy(128_000, 8_000).at, 54_464);
  const small = defaultPolicy(32_000, 8_192);
  assert.ok(small.keepRecent < small.at && small.at < 32_000 - 8_192);
  assert.throws(() => defaultPolicy(4_000, 8_192), /no room/);
});

Deno.test("flags: --compact-at and --keep-recent go together, keep below at, off means off", () => {
  const base = { compaction: true, maxOutputTokens: 8192 };
  assert.deepEqual(policyFromFlags({ ...base, compactAt: 900, keepRecent: 300 }), {
    at: 900,
    keepRecent: 300,
  });
  assert.throws(() => policyFromFlags({ ...base, compactAt: 900 }), /go together/);
  assert.throws(() => policyFromFlags({ ...base, compactAt: 9, keepRecent: 9 }), /below/);
  assert.throws(
    () => policyFromFlags({ ...base, compaction: false, compactAt: 9, keepRecent: 1 }),
    /cannot be combined/,
  );
  assert.equal(policyFromFlags({ ...base, compaction: false }), undefined);
  assert.equal(policyFromFlags({ ...base, contextWindow: 128_000 })!.at, 54_272);
});

const sys: ChatMessage = { role: "system", content: "system" };
const user = (text: string): ChatMessage => ({ role: "user", content: text });
const answer = (text: string): ChatMessage => ({ role: "assistant", content: text });
const callAndResult = (id: string, result: string): ChatMessage[] => [
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id, type: "function", function: { name: "read_file", arguments: "{}" } }],
  },
  { role: "tool", tool_call_id: id, content: result },
];

Deno.test("the kept tail never starts with a tool result", () => {
  const messages = [sys, user("a".repeat(400)), ...callAndResult("c", "r".repeat(400)), user("b")];
  for (let keep = 1; keep < 400; keep += 7) {
    const tail = selectTail(messages, 1, keep)!;
    assert.notEqual(messages[tail]!.role, "tool");
    assert.ok(tail > 1);
  }
});

const TOOLS: ToolDefinition[] = [{
  type: "function",
  function: { name: "read_file", description: "d", parameters: {} },
}];

/** Every reply reports 100 tokens in and 20 out. */
const USAGE = { promptTokens: 100, completionTokens: 20 };

function setup(
  turns: ScriptTurn[],
  plugins: StartedPlugin[] = [],
  at = 2_000,
  keepRecent = 500,
  retained = 0,
) {
  const model = scriptedClient(turns, { usage: USAGE });
  const usage = emptyUsage();
  const notes: string[] = [];
  const saved: string[] = [];
  const events: CompactionEvent[] = [];
  const compactor = createCompactor({
    policy: { at, keepRecent },
    model,
    toolDefinitions: () => TOOLS,
    plugins: new PluginDriver((text) => notes.push(`warn: ${text}`), plugins),
    usage,
    log: { info: (text) => notes.push(text), warn: (text) => notes.push(`warn: ${text}`) },
    save: (text) => {
      saved.push(text);
      return Promise.resolve(`/spill/${saved.length}.txt`);
    },
    retained,
    emit: (event) => events.push(event),
  });
  const { requests, purposes } = model;
  return { compactor, requests, purposes, usage, notes, saved, events };
}

const signal = new AbortController().signal;

Deno.test("under the threshold nothing happens", async () => {
  const { compactor, requests } = setup([]);
  const messages = [sys, user("hello")];
  await compactor.beforeRequest(messages, signal);
  assert.deepEqual(messages, [sys, user("hello")]);
  assert.equal(requests.length, 0);
});

Deno.test("old large tool results are pruned first; no summary when that is enough", async () => {
  const big = "x".repeat(PRUNE_OVER_CHARS + 2_000);
  const messages = [
    sys,
    user("read it"),
    ...callAndResult("old", big),
    answer("read"),
    user("next"),
  ];
  const { compactor, requests, notes, saved } = setup([], [], 2_000, 100);
  await compactor.beforeRequest(messages, signal);
  assert.equal(requests.length, 0);
  const pruned = messages[3] as { content: string };
  assert.match(pruned.content, /characters of this old tool result were pruned/);
  assert.match(pruned.content, /saved at \/spill\/1\.txt/);
  assert.equal(saved[0], big);
  assert.match(notes.join("\n"), /\[compaction\] pruned 1 old tool result/);
  assert.equal(messages.length, 6);
});

Deno.test("then the older part is summarised into a checkpoint; the region follows it", async () => {
  const region: ChatMessage = {
    role: "user",
    content: "<retained-skills>\nskill\n</retained-skills>",
  };
  const budgets: number[] = [];
  const plugin: StartedPlugin = {
    name: "p",
    hooks: {
      afterCompaction: (kept, budget) => {
        budgets.push(budget, conversationTokens(kept));
        return [region];
      },
    },
  };
  const messages = [
    sys,
    user("task ".repeat(800)),
    ...callAndResult("old", "y".repeat(PRUNE_OVER_CHARS + 10)),
    answer("a".repeat(3_000)),
    user("recent question"),
  ];
  const { compactor, requests, purposes, usage, notes } = setup(
    [{ text: "## Primary Request and Intent\n- the task" }],
    [plugin],
  );
  await compactor.beforeRequest(messages, signal);
  assert.equal(requests.length, 1);
  const request = requests[0]!;
  assert.equal(purposes[0], "compaction");
  assert.deepEqual(request.body.tools, TOOLS);
  // Pruning came first: the summary request already has the pruned result.
  assert.match((request.messages[3] as { content: string }).content, /pruned/);
  assert.match((request.messages.at(-1) as { content: string }).content, /## Next Step/);
  assert.equal(messages[0], sys);
  assert.ok(isCheckpoint(messages[1]));
  assert.match((messages[1] as { content: string }).content, /<compacted-summary>\n## Primary/);
  assert.deepEqual(messages[2], region);
  assert.deepEqual(messages.at(-1), user("recent question"));
  assert.equal(compactor.retained(), 1);
  // The plugin was given the room left under the threshold (2,000) after the compaction.
  const [budget, keptTokens] = budgets;
  assert.equal(budget, 2_000 - keptTokens!);
  assert.ok(budget! > 0 && budget! < 2_000);
  assert.equal(usage.modelCalls, 1);
  assert.equal(usage.inputTokens, 100);
  assert.match(notes.join("\n"), /\[compaction\] \d+ messages → summary/);

  // A later compaction rebuilds the region instead of summarising or stacking it.
  messages.push(answer("b".repeat(9_000)), user("again"));
  const later = setup(
    [{ text: "## Primary Request and Intent\n- merged" }],
    [plugin],
    2_000,
    500,
    compactor.retained(),
  );
  await later.compactor.beforeRequest(messages, signal);
  assert.equal(later.requests.length, 1);
  assert.ok(!later.requests[0]!.messages.some((m) => m.content === region.content));
  assert.equal(messages.filter((m) => m.content === region.content).length, 1);
  assert.match((messages[1] as { content: string }).content, /- merged/);
});

Deno.test("a failed, tool-calling, cut-off, empty or larger summary changes nothing", async () => {
  const rejected: [ScriptTurn, RegExp][] = [
    [{ fail: 500, body: "HTTP 500" }, /summary request failed: HTTP 500/],
    [{ toolCalls: [{ id: "t", name: "bash", arguments: "{}" }] }, /called a tool/],
    [{ text: "half", finishReason: "length" }, /cut off/],
    [{ text: "   " }, /empty/],
    [{ text: "s".repeat(40_000) }, /not smaller/],
  ];
  for (const [reply, why] of rejected) {
    const messages: ChatMessage[] = [
      sys,
      user("q ".repeat(2_000)),
      answer("a ".repeat(2_000)),
      user("now"),
    ];
    const before: ChatMessage[] = structuredClone(messages);
    const { compactor, notes, usage } = setup([reply]);
    await compactor.beforeRequest(messages, signal);
    assert.deepEqual(messages, before);
    assert.match(notes.join("\n"), why);
    assert.match(notes.join("\n"), /skipped.*unchanged/);
    assert.equal(usage.modelCalls, 1);
    assert.equal(compactor.retained(), 0);
  }
});

Deno.test("the server's prompt count drives the estimate once known", async () => {
  const { compactor, requests } = setup([{ text: "## s" }], [], 2_000, 10);
  const messages = [sys, user("short"), answer("short"), user("now")];
  compactor.measured(3, 5_000); // the server counted far more than chars/4 suggests
  await compactor.beforeRequest(messages, signal);
  assert.equal(requests.length, 1);
});

Deno.test("compacting now summarises most of a conversation far below the threshold and says what it did", async () => {
  const { compactor, requests, notes, events } = setup(
    [{ text: "## Primary Request and Intent\n- the work" }],
    [],
    800_000,
    150_000,
  );
  const messages: ChatMessage[] = [sys];
  for (let turn = 0; turn < 6; turn++) {
    messages.push(user(`question ${turn} `.repeat(100)), answer(`answer ${turn} `.repeat(100)));
  }
  const report = await compactor.compactNow(messages, signal);
  assert.equal(requests.length, 1);
  assert.ok(isCheckpoint(messages[1]));
  assert.deepEqual(messages.at(-1), answer("answer 5 ".repeat(100)));
  assert.equal(report.summarised, 11);
  assert.equal(report.pruned, 0);
  assert.equal(report.messagesBefore, 12);
  assert.equal(report.messagesAfter, 2);
  assert.ok(report.tokensAfter < report.tokensBefore / 3, JSON.stringify(report));
  assert.equal(report.skipped, undefined);
  assert.deepEqual(notes, []);
  const { tokensBefore, tokensAfter } = report;
  const manual = { trigger: "manual", summarised: 11, pruned: 0, tokensBefore, tokensAfter };
  assert.deepEqual(events, [{ type: "compaction", ...manual }]);

  // Nothing is left to summarise but the checkpoint itself: said, and nothing is asked.
  const again = await compactor.compactNow(messages, signal);
  assert.equal(events.length, 1, "a compaction that changed nothing is no event");
  assert.equal(requests.length, 1);
  assert.equal(again.summarised, 0);
  assert.equal(again.skipped, "nothing old enough to summarise");
  assert.equal(again.tokensAfter, again.tokensBefore);
});

Deno.test("an interrupted summary request changes nothing and leaves the usage totals known", async () => {
  const messages: ChatMessage[] = [
    sys,
    user("q ".repeat(2_000)),
    answer("a ".repeat(2_000)),
    user("now"),
  ];
  const before: ChatMessage[] = structuredClone(messages);
  const controller = new AbortController();
  const { compactor, usage } = setup([() => {
    controller.abort(); // the person interrupts while the summary is being written
    return { text: "## Primary Request and Intent\n- never used" };
  }]);
  await compactor.beforeRequest(messages, controller.signal);
  assert.deepEqual(messages, before);
  assert.deepEqual(usage, {
    modelCalls: 0,
    answeredCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
  });
});
