/**
 * The benchmark's results as one JSON document and as a Markdown table for people.
 *
 * @module
 */
import type { CallOverhead } from "./call_overhead.ts";
import type { ColdStart } from "./cold_start.ts";
import type { ContextRow } from "./context_cost.ts";
import type { CatalogueCost } from "./catalogue_cost.ts";
import { formatCatalogueCost, formatManyServers } from "./catalogue_report.ts";
import type { ManyServers } from "./many_servers.ts";
import type { HookOverhead } from "./hook_overhead.ts";
import type { McpStart } from "./mcp_start.ts";
import type { Memory } from "./memory.ts";
import { formatGitWatch, type GitWatchRow } from "./git_watch.ts";
import { formatJournalCost, type JournalCostRow } from "./journal_cost.ts";
import { formatMcpFraming, type FramingRow } from "./mcp_framing.ts";
import { formatSessionsList, type SessionsListRow } from "./sessions_list.ts";
import { formatPermissionRules, type PermissionRulesRow } from "./permission_rules.ts";
import { formatInputLatency, type InputLatencyRow } from "./input_latency.ts";
import { type ChatKeyLatency, formatChatKeyLatency } from "./chat_key_latency.ts";
import { formatMarkdownRender, type MarkdownRenderRow } from "./markdown_render.ts";
import { int, table } from "./table.ts";

/** Everything one `deno task bench` measured. */
export interface BenchResults {
  date: string;
  machine: {
    os: string;
    arch: string;
    cpus: number;
    deno: string;
    hel: string;
    /** The 1-minute load average when the benchmark started (other work skews timings). */
    loadAverage?: number;
  };
  /** Why the binary was not measured, when it was not. */
  binarySkipped?: string;
  coldStart: ColdStart[];
  mcpStart: McpStart;
  callOverhead: CallOverhead;
  /** Absent in results written before hooks were measured. */
  hookOverhead?: HookOverhead;
  contextCost: ContextRow[];
  /** The port task at 10 to 10,000 tools, eager, list and search; search quality. */
  catalogueCost?: CatalogueCost;
  /** Start-up with 50 servers. */
  manyServers?: ManyServers;
  memory: Memory;
  /** The look for planted git repositories, per project size. */
  gitWatch?: GitWatchRow[];
  journal?: JournalCostRow[];
  /** Receiving a large MCP result (issue 17). */
  mcpFraming?: FramingRow[];
  /** `hel sessions` at 10, 100 and 1,000 sessions. */
  sessionsList?: SessionsListRow[];
  permissionRules?: PermissionRulesRow[];
  /** Key-to-screen latency of the chat's input box. */
  inputLatency?: InputLatencyRow[];
  /** The whole chat: a key written to the pty → the character on the emulated screen. */
  chatKeyLatency?: ChatKeyLatency;
  /** Drawing a markdown answer in the chat, per answer size. */
  markdown?: MarkdownRenderRow[];
  durationS: number;
}

const f1 = (value: number | undefined) => value === undefined ? "n/a" : value.toFixed(1);

/** The Markdown report (also printed to stdout). */
export function formatReport(results: BenchResults): string {
  const { machine, mcpStart: start, callOverhead: call, memory: mem } = results;
  const parts: string[] = [];
  parts.push(
    `# hel benchmark — ${results.date}`,
    `hel ${machine.hel}, Deno ${machine.deno}, ${machine.os}/${machine.arch}, ` +
      `${machine.cpus} CPUs, load average ${f1(machine.loadAverage)} at the start; every time ` +
      `is a median (ms). Took ${results.durationS.toFixed(0)} s.`,
  );
  parts.push(
    "## Cold start",
    table(
      [
        "hel",
        "runs",
        "`hel --version`",
        "spawn → first model request",
        "one-shot run, spawn → exit",
      ],
      results.coldStart.map((row) => [
        row.hel,
        String(row.runs),
        f1(row.versionMs),
        f1(row.firstRequestMs),
        f1(row.oneShotMs),
      ]),
    ) + (results.binarySkipped ? `\n\nBinary not measured: ${results.binarySkipped}.` : ""),
  );
  parts.push(
    "## MCP start",
    `Fixture servers that each take ${start.delayMs} ms to start, ${start.toolsPerServer} tools ` +
      `each; ${start.runs} runs.`,
    table(
      ["servers", "sandbox", "`hel mcp list`, spawn → exit", "spawn → first model request"],
      start.rows.map((row) => [
        String(row.servers),
        row.servers === 0 ? "" : row.sandboxed ? "on" : '`"sandbox": false`',
        f1(row.listMs),
        f1(row.firstRequestMs),
      ]),
    ),
    `Sandboxed (hel's default), one server adds ${f1(start.oneSandboxedCostMs)} ms and ten add ` +
      `${f1(start.tenSandboxedCostMs)} ms; with \`"sandbox": false\` one adds ` +
      `${f1(start.oneServerCostMs)} ms, so the sandbox costs ` +
      `${f1(start.oneSandboxedCostMs - start.oneServerCostMs)} ms per server start. ` +
      `Unsandboxed, ten add ${f1(start.tenServersCostMs)} ms; ` +
      `started one after another ten would add about ${f1(start.sequentialEstimateMs)} ms, so ` +
      (start.tenServersCostMs < start.sequentialEstimateMs / 2
        ? "the servers start concurrently."
        : "the servers did NOT start concurrently."),
  );
  parts.push(
    "## Per-call overhead",
    `${call.callsPerBlock} calls per kind in one hel run, ${call.runs} runs; through hel a call ` +
      "is timed from the model request that asks for it to the next one, which carries its result.",
    table(["call", "ms"], [
      ["MCP tool through hel (model request → next request)", f1(call.mcpThroughHelMs)],
      ["the same MCP call from a bare SDK client", f1(call.mcpBareSdkMs)],
      ["built-in read_file through hel", f1(call.readFileMs)],
      ["loop turnaround (a tool that does no I/O)", f1(call.loopTurnaroundMs)],
    ]),
  );
  if (results.hookOverhead) parts.push(...hookSection(results.hookOverhead));
  parts.push(
    "## Context cost",
    "Bytes of the JSON request bodies and estimated tokens (characters / 4). Trajectory: " +
      "load (deferred only) → MCP call → search_replace edit → answer; every request summed.",
    table(
      [
        "MCP tools",
        "loading",
        "requests",
        "first request bytes",
        "first request tokens",
        "trajectory bytes",
        "trajectory tokens",
      ],
      results.contextCost.map((row) => [
        int(row.tools),
        row.mode,
        String(row.requests),
        int(row.firstBytes),
        int(row.firstTokens),
        int(row.totalBytes),
        int(row.totalTokens),
      ]),
    ),
  );
  if (results.catalogueCost) parts.push(...formatCatalogueCost(results.catalogueCost));
  if (results.manyServers) parts.push(...formatManyServers(results.manyServers));
  parts.push(
    "## Peak memory",
    `${mem.runs} runs; peak resident size (MiB).`,
    table(["run", "hel", "MCP servers (summed)"], [
      ["no MCP servers", f1(mem.noServersHelMiB), "—"],
      [
        `10 MCP servers (${mem.children} processes)`,
        f1(mem.tenServersHelMiB),
        f1(mem.tenServersChildrenMiB),
      ],
    ]),
  );
  if (results.gitWatch) parts.push(...formatGitWatch(results.gitWatch));
  if (results.journal) parts.push(...formatJournalCost(results.journal));
  if (results.mcpFraming) parts.push(...formatMcpFraming(results.mcpFraming));
  if (results.sessionsList) parts.push(...formatSessionsList(results.sessionsList));
  if (results.permissionRules) parts.push(...formatPermissionRules(results.permissionRules));
  if (results.inputLatency) parts.push(...formatInputLatency(results.inputLatency));
  if (results.chatKeyLatency) parts.push(...formatChatKeyLatency(results.chatKeyLatency));
  if (results.markdown) parts.push(...formatMarkdownRender(results.markdown));
  return parts.join("\n\n") + "\n";
}

/** What one PreToolUse hook adds to a `read_file` call, outside and inside the sandbox. */
function hookSection(hook: HookOverhead): string[] {
  const added = (ms: number) => f1(ms - hook.noHookMs);
  return [
    "## Per hook call",
    `${hook.callsPerRun} read_file calls per hel run (the first left out), ${hook.runs} runs ` +
    "each; a PreToolUse hook `true` on every call.",
    table(["read_file call", "ms", "added by the hook"], [
      ["without hooks", f1(hook.noHookMs), "—"],
      [
        'hook outside the sandbox ("sandbox": false; how hooks ran before)',
        f1(hook.unsandboxedMs),
        added(hook.unsandboxedMs),
      ],
      ["hook in the sandbox (the default)", f1(hook.sandboxedMs), added(hook.sandboxedMs)],
    ]),
  ];
}
