import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { contextCost } from "./context_cost.ts";
import { catalogueCost } from "./catalogue_cost.ts";
import { formatCatalogueCost } from "./catalogue_report.ts";
import { fromSource } from "./hel_process.ts";
import { formatJournalCost, journalCost } from "./journal_cost.ts";
import { formatSessionsList, sessionsList } from "./sessions_list.ts";
import { formatPermissionRules, permissionRules } from "./permission_rules.ts";
import { chatKeyLatency } from "./chat_key_latency.ts";
import { formatMarkdownRender, markdownAnswer, markdownRender } from "./markdown_render.ts";
import { descendants, treeMemory } from "./memory_probe.ts";
import { gaps, median } from "./stats.ts";
import { formatMcpFraming, mcpFraming } from "./mcp_framing.ts";
import { int } from "./table.ts";

Deno.test("bench stats: median of odd and even counts, gaps between neighbours", () => {
  assert.equal(median([5, 1, 3]), 3);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
  assert.deepEqual(gaps([10, 13, 20]), [3, 7]);
});

Deno.test("bench counts: rounded, digits grouped by commas", () => {
  assert.deepEqual([0, 999.4, 1_234.5, 1_234_567].map(int), ["0", "999", "1,235", "1,234,567"]);
});

Deno.test({
  name: "bench memory probe: finds a child process and reads peak sizes",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const child = new Deno.Command("sleep", { args: ["5"] }).spawn();
    try {
      assert.ok(descendants(Deno.pid).includes(child.pid));
      const memory = treeMemory(Deno.pid);
      assert.ok((memory.helKiB ?? 0) > 1024, `peak of this process: ${memory.helKiB}`);
      assert.ok(memory.children >= 1);
    } finally {
      child.kill();
      await child.status;
    }
  },
});

Deno.test("bench context cost: the same trajectory runs deferred and eager, eager sends more up front", async () => {
  const rows = await contextCost(fromSource(), [10]);
  const deferred = rows.find((row) => row.mode === "deferred")!;
  const eager = rows.find((row) => row.mode === "eager")!;
  // Deferred: load → call → edit → answer; eager skips the load.
  assert.equal(deferred.requests, 4);
  assert.equal(eager.requests, 3);
  assert.ok(eager.firstBytes > deferred.firstBytes, JSON.stringify(rows));
  assert.ok(deferred.totalTokens > deferred.firstTokens);
});

Deno.test("deno task bench: --help prints the usage, an unknown flag is a one-line error", async () => {
  const bench = async (flag: string) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", fileURLToPath(new URL("./main.ts", import.meta.url)), flag],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
  };
  const help = await bench("--help");
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^usage: deno task bench \[--runs N\]/);
  const wrong = await bench("--run=3");
  assert.equal(wrong.code, 2);
  assert.equal(wrong.stderr, `bench: Unknown option '--run'\n${help.stdout}`);
});

Deno.test("bench journal cost: one row per journal size, each with its three figures", async () => {
  const rows = await journalCost(1, [10, 1_000]);
  assert.deepEqual(rows.map((row) => row.entries), [10, 1_000]);
  for (const row of rows) {
    assert.ok(row.appendUs > 0 && row.endsMs > 0 && row.readAllMs > 0, JSON.stringify(row));
  }
  assert.match(formatJournalCost(rows).join("\n"), /\| 1,000 \| [\d.]+ \| [\d.]+ \| [\d.]+ \|/);
});

Deno.test("bench hel sessions: one row per number of sessions, each listed whole", async () => {
  const rows = await sessionsList(1, [3, 30]);
  assert.deepEqual(rows.map((row) => row.sessions), [3, 30]);
  for (const row of rows) assert.ok(row.listMs > 0 && row.journalsMB > 0, JSON.stringify(row));
  assert.match(formatSessionsList(rows).join("\n"), /\| 30 \| [\d.]+ \| [\d.]+ \| \d+ \|/);
});

Deno.test("bench chat key latency: keys typed into hel's chat are timed until the screen shows them", async () => {
  const latency = await chatKeyLatency(fromSource(), 3);
  assert.equal(latency.keys, 3);
  assert.ok(latency.medianMs > 0 && latency.medianMs <= latency.maxMs, JSON.stringify(latency));
});

Deno.test("bench markdown rendering: the answer mixes every kind of block, each size gets its figures", () => {
  const answer = markdownAnswer(20_000);
  assert.equal(answer.length, 20_000);
  for (const mark of ["## ", "\n- ", "\n1. ", "```ts", "```python", "```sh", "| --- |", "\n> "]) {
    assert.ok(answer.includes(mark), mark);
  }
  const rows = markdownRender(1, [5_000, 20_000]);
  assert.deepEqual(rows.map((row) => row.bytes), [5_000, 20_000]);
  for (const row of rows) {
    assert.ok(row.wholeMs > 0 && row.deltas4kMs > 0 && row.deltas20Ms > 0, JSON.stringify(row));
  }
  assert.match(formatMarkdownRender(rows).join("\n"), /\| 20 KB \| \d+ \([\d.]+\/KB\) \|/);
});

Deno.test("bench permission rules: every size decides an allowed line, and the table has a row each", async () => {
  const rows = await permissionRules(1);
  assert.deepEqual(rows.map((row) => [row.rules, row.commands]), [
    [10, 1],
    [10, 10],
    [10, 100],
    [100, 1],
    [100, 10],
    [100, 100],
    [1000, 1],
    [1000, 10],
    [1000, 100],
  ]);
  assert.ok(rows.every((row) => row.decideMs > 0 && row.readMs > 0));
  assert.equal(formatPermissionRules(rows)[2]!.split("\n").length, 11);
});

Deno.test("bench catalogue cost: the port task passes eager, listed and searched; search sends least", async () => {
  const cost = await catalogueCost(fromSource(), [100], [100]);
  const row = (mode: string) => cost.rows.find((r) => r.mode === mode)!;
  assert.deepEqual(cost.rows.map((r) => [r.mode, r.requests]), [
    ["eager", 3],
    ["list", 4],
    ["search", 5],
  ]);
  assert.ok(row("search").firstTokens < row("list").firstTokens / 2);
  assert.ok(row("list").firstTokens < row("eager").firstTokens);
  assert.ok(cost.recall.at5 >= 0.9);
  assert.match(formatCatalogueCost(cost).join("\n"), /\| 100 \| search \| 5 \|/);
  assert.deepEqual(cost.build.map((row) => row.tools), [100]);
  assert.match(formatCatalogueCost(cost).join("\n"), /100 tools: catalog \d+, loading one tool/);
});

Deno.test({
  name: "bench MCP framing: peak memory is measured at the largest size asked for",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const rows = await mcpFraming(1, undefined, [2, 1]);
    assert.deepEqual(rows.map((row) => row.mib), [2, 1]);
    assert.ok(rows[0]!.peakGrowthMib !== undefined && rows[0]!.peakGrowthMib >= 0);
    assert.equal(rows[1]!.peakGrowthMib, undefined);
    assert.match(formatMcpFraming(rows)[1]!, /receives the 2 MiB answer/);
  },
});
