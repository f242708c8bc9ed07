/**
 * Compaction end to end: a conversation driven past a small --compact-at keeps working,
 * old large results are pruned before anything is summarised, rejected summaries change
 * nothing, /compact forces it, and --no-compaction also keeps large results whole.
 */
import assert from "node:assert/strict";
import type { RecordedRequest, ScriptTurn } from "../../fixtures/scripted_model.ts";
import { eventually, pause, scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { helOnTerminal } from "../_terminal.ts";

const base = (url: string) => ["--base-url", url, "--model", "m", "--access", "auto", "--no-env"];
const size = (request: RecordedRequest) => JSON.stringify(request.messages).length;
// deno-lint-ignore no-explicit-any
const text = (message: any) => String(message?.content ?? "");
const isSummaryRequest = (request: RecordedRequest) =>
  /compaction summary/.test(text(request.messages.at(-1)));
const SUMMARY = "## Primary Request and Intent\n- read the files\n## Next Step\n- answer";

/** A model that reads `files` one per request, summarises when asked, then answers. */
function reader(files: string[], summary: ScriptTurn = { text: SUMMARY }) {
  let next = 0;
  return (request: RecordedRequest): ScriptTurn => {
    if (isSummaryRequest(request)) return summary;
    const file = files[next++];
    return file
      ? { toolCalls: [{ name: "read_file", arguments: { path: file } }] }
      : { text: "all files read" };
  };
}

const lines = (label: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${label} line ${i}: ${"x".repeat(60)}`).join("\n");

const FILES = {
  "big.txt": lines("big", 400),
  "a.txt": lines("a", 40),
  "b.txt": lines("b", 40),
  "c.txt": lines("c", 40),
  "d.txt": lines("d", 40),
};
const READS = ["big.txt", "a.txt", "b.txt", "c.txt", "d.txt"];
const SMALL = ["--compact-at", "4000", "--keep-recent", "1200"];

Deno.test("past a small --compact-at: the next request is smaller, starts with the checkpoint, offers the same tools", async () => {
  await using project = await tempProject(FILES);
  const play = reader(READS);
  await using model = scriptedModel([
    ...Array.from({ length: 7 }, () => play),
    { text: "resumed fine" },
  ]);
  const record = `${project.root}/run/record.json`;
  const result = await runHelInProcess([
    ...base(model.url),
    ...SMALL,
    "--record",
    record,
    "read them all",
  ], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "all files read\n");
  const requests = model.requests;
  // The summary request is a model exchange of its own purpose, and counts as a model call.
  const raw = (await Deno.readTextFile(`${project.root}/run/raw/requests.jsonl`)).trim();
  assert.deepEqual(
    raw.split("\n").map((line) => JSON.parse(line).purpose),
    [...Array(5).fill("conversation"), "compaction", "conversation"],
  );
  assert.equal(JSON.parse(await Deno.readTextFile(record)).usage.model_calls.value, 7);
  const summaryAt = requests.findIndex(isSummaryRequest);
  assert.equal(summaryAt, 5, "one summary request, before the sixth conversation request");
  assert.equal(requests.filter(isSummaryRequest).length, 1);

  // Pruning came first: the big result was cut before any summary was asked for.
  const big = FILES["big.txt"].slice(0, 3000);
  assert.ok(text(requests[2]!.messages[3]).startsWith(big));
  assert.match(
    text(requests[3]!.messages[3]),
    /characters of this old tool result were pruned to save context; the full result is saved at \S+\.txt \(read it with read_file if you need it again\)/,
  );
  assert.match(result.stderr, /\[compaction\] pruned 1 old tool result/);
  const spilled = text(requests[3]!.messages[3]).match(/saved at (\S+\.txt)/)![1]!;
  assert.ok((await Deno.readTextFile(spilled)).startsWith(big));

  // The summary request: the older history as it was, the instruction last, same tools.
  const summary = requests[summaryAt]!;
  assert.equal(summary.messages[0].role, "system");
  assert.match(text(summary.messages[3]), /pruned/);
  assert.deepEqual(summary.toolNames, requests[summaryAt - 1]!.toolNames);

  // The next request: smaller, system then checkpoint, recent tail verbatim, every tool.
  const before = requests[summaryAt - 1]!;
  const after = requests[summaryAt + 1]!;
  assert.ok(size(after) < size(before), `${size(after)} < ${size(before)}`);
  assert.equal(after.messages[0].role, "system");
  assert.equal(after.messages[0].content, before.messages[0].content);
  assert.equal(after.messages[1].role, "user");
  assert.match(text(after.messages[1]), /^\[Automatic checkpoint\]/);
  assert.ok(
    text(after.messages[1]).includes(`<compacted-summary>\n${SUMMARY}\n</compacted-summary>`),
  );
  const last = after.messages.at(-1);
  assert.equal(last.role, "tool");
  assert.ok(text(last).startsWith("d line 0:"));
  assert.equal(after.messages.at(-2).tool_calls[0].id, last.tool_call_id);
  assert.ok(before.toolNames.includes("read_file"));
  assert.deepEqual(after.toolNames, before.toolNames);
  assert.match(result.stderr, /\[compaction\] \d+ messages → summary: ~\d+ → ~\d+ tokens/);

  // The compacted conversation is what a resumed session continues from.
  const id = result.stderr.match(/^session: (\S+)$/m)![1]!;
  const resumed = await runHelInProcess([
    ...base(model.url),
    ...SMALL,
    "--resume",
    id,
    "-i",
    "go on",
  ], {
    cwd: project.project,
  });
  assert.equal(resumed.code, 0, resumed.stderr);
  const continued = requests.at(-1)!;
  assert.match(text(continued.messages[1]), /^\[Automatic checkpoint\]/);
  assert.deepEqual(continued.messages.slice(1, -1), [
    ...after.messages.slice(1),
    { role: "assistant", content: "all files read" },
  ]);
  assert.equal(model.remaining(), 0);
});

Deno.test("a summary that calls a tool, is cut off or is not smaller changes nothing", async () => {
  const cases: [ScriptTurn, RegExp][] = [
    [
      { toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] },
      /skipped: the summary called a tool/,
    ],
    [{ text: "## Primary Request", finishReason: "length" }, /skipped: the summary was cut off/],
    [
      { text: "## Primary Request\n" + "- detail\n".repeat(20_000) },
      /skipped: the summary is not smaller/,
    ],
  ];
  for (const [summary, note] of cases) {
    await using project = await tempProject(FILES);
    const play = reader(READS, summary);
    await using model = scriptedModel(Array.from({ length: 7 }, () => play));
    const result = await runHelInProcess([...base(model.url), ...SMALL, "read them all"], {
      cwd: project.project,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "all files read\n");
    assert.match(result.stderr, note);
    assert.match(result.stderr, /the conversation is unchanged/);
    const requests = model.requests;
    assert.ok(isSummaryRequest(requests[5]!));
    const [before, after] = [requests[4]!, requests[6]!];
    // The conversation went on exactly as it was: the earlier request is a prefix of the next.
    assert.deepEqual(after.messages.slice(0, before.messages.length), before.messages);
    assert.equal(after.messages.length, before.messages.length + 2);
    assert.ok(!requests.some((r) => r.messages.some((m) => /Automatic checkpoint/.test(text(m)))));
    assert.equal(model.remaining(), 0);
  }
});

Deno.test("--no-compaction keeps large results whole; by default they are spilled", async () => {
  for (const compaction of [true, false]) {
    await using project = await tempProject();
    await using model = scriptedModel([
      { toolCalls: [{ name: "bash", arguments: { command: "seq 1 20000" } }] },
      { text: "counted" },
    ]);
    const flags = compaction ? [] : ["--no-compaction"];
    const result = await runHelInProcess([...base(model.url), ...flags, "count"], {
      cwd: project.project,
    });
    assert.equal(result.code, 0, result.stderr);
    const content = text(model.requests[1]!.messages.at(-1));
    if (compaction) {
      assert.match(content, /Result too large: \d+ characters omitted here/);
      assert.ok(content.length < 10_000);
    } else {
      assert.ok(content.includes("\n19999\n20000"));
      assert.doesNotMatch(content, /Result too large/);
    }
    assert.equal(model.remaining(), 0);
  }
});

Deno.test("/compact in the interactive chat compacts now; the next turn starts from the checkpoint", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([
    { text: "noted" },
    (request) => isSummaryRequest(request) ? { text: SUMMARY } : { text: "not a summary request" },
    { text: "continuing" },
  ]);
  const hel = helOnTerminal(project, base(model.url));
  const type = hel.type;
  await type(`remember this: ${"a long instruction ".repeat(200)}\n`);
  await eventually(() => model.requests.length === 1, "the first answer");
  await pause(300);
  await type("/compact\n");
  await eventually(() => model.requests.length === 2, "the summary request");
  await pause(300);
  await type("what next?\n");
  await eventually(() => model.requests.length === 3, "the next turn");
  await pause(300);
  await type("/exit\n");
  const { code, output: screen } = await hel.finish();
  assert.equal(code, 0, screen);
  assert.match(screen, /compacted 1 message into a summary: ~[\d,]+ → ~[\d,]+ tokens/);
  assert.ok(isSummaryRequest(model.requests[1]!));
  // The summary request counts in the run's usage: three model calls after the second turn.
  assert.match(screen, /\[usage: 3 model calls · input \d/);
  const next = model.requests[2]!.messages;
  assert.deepEqual(next.map((m: { role: string }) => m.role), [
    "system",
    "user",
    "assistant",
    "user",
  ]);
  assert.match(text(next[1]), /^\[Automatic checkpoint\][\s\S]*<compacted-summary>/);
  assert.equal(text(next[3]), "what next?");
  assert.equal(model.remaining(), 0);
});
