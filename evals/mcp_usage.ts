/**
 * The MCP usage rubric (check type `mcp_usage`), read from the raw model requests and the MCP
 * server's own message log. A run uses MCP when, in this order:
 *
 * 1. a successful `load_mcp_tool` names `mcp__<server>__<tool>` (or a `search_mcp_tools` call
 *    loads it, in search mode), unless the first request offered its definition already
 *    (`--mcp-eager`: nothing to load);
 * 2. the model then calls that tool with the expected arguments, the call succeeds and its
 *    answer holds the expected value — and the server's log shows a `tools/call` of the tool
 *    that it answered with that value (so the answer really came from the server);
 * 3. a successful call of the edit tool follows.
 *
 * A correct file without step 2 is not MCP use. Calling an MCP tool of the server before it
 * was loaded (hel answers with a load-first notice) is reported as an early call; when the
 * model then loads it and goes on, the run still passes.
 *
 * @module
 */
import { type CallEntry, readServerLog, readTimeline, resultText } from "./raw_log.ts";
import type { CheckSpec } from "./spec.ts";

type Spec = Extract<CheckSpec, { type: "mcp_usage" }>;

/** What the rubric found; call numbers are positions in the run's tool-call sequence. */
export interface McpUsageFacts {
  /** The successful load naming the tool. */
  load_call: number | null;
  /** The first request offered the tool's definition (`--mcp-eager`), so no load was needed. */
  offered_up_front: boolean;
  /** The model's call that returned the expected value after the load. */
  lookup_call: number | null;
  /** The successful edit after that call. */
  edit_call: number | null;
  /** `tools/call` requests of the tool the server received, and how many it answered with the value. */
  server_calls: number;
  server_calls_with_value: number;
  /** Calls of this server's MCP tools that got the load-first notice. */
  early_calls: number[];
  /** True when every early-called tool was then loaded successfully. */
  recovered_after_notice: boolean;
}

/** Applies the rubric to the run in `runDir`. */
export async function checkMcpUsage(
  runDir: string,
  spec: Spec,
): Promise<{ pass: boolean; detail: string; facts: McpUsageFacts }> {
  const { requests, calls } = await readTimeline(runDir);
  const prefix = `mcp__${spec.server}__`;
  const fullName = `${prefix}${spec.tool}`;
  const serverLog = `${runDir}/workspace/${spec.server_log}`;
  const received = (await readServerLog(serverLog)).filter((exchange) =>
    exchange.method === "tools/call" && exchange.params?.name === spec.tool
  );
  const answeredWithValue = received.filter((exchange) =>
    matches(exchange.params?.arguments, spec.arguments) &&
    exchange.reply?.result?.isError !== true &&
    resultText(exchange.reply).includes(spec.expect)
  );

  const load = calls.find((call) =>
    LOADERS.has(call.name) && call.ok === true && namesOf(call).includes(fullName)
  );
  const upFront = requests[0]?.toolNames.includes(fullName) === true;
  // Where the tool became callable: after its load, or from the start when offered up front.
  const from = load?.seq ?? (upFront ? 0 : undefined);
  // hel answers a call of a listed but unloaded tool with a load-first notice.
  const early = calls.filter((call) =>
    call.name.startsWith(prefix) && call.ok === false && /not loaded/i.test(call.result ?? "")
  );
  const loadedLater = (call: CallEntry) =>
    calls.some((other) =>
      other.seq > call.seq && LOADERS.has(other.name) && other.ok === true &&
      namesOf(other).includes(call.name)
    );
  const lookup = from === undefined
    ? undefined
    : calls.find((call) =>
      call.seq > from && call.name === fullName && call.ok === true &&
      matches(call.args, spec.arguments) && (call.result ?? "").includes(spec.expect)
    );
  const edit = lookup && answeredWithValue.length > 0
    ? calls.find((call) =>
      call.seq > lookup.seq && call.name === spec.edit_tool && call.ok === true
    )
    : undefined;

  const facts: McpUsageFacts = {
    load_call: load?.seq ?? null,
    offered_up_front: upFront,
    lookup_call: lookup?.seq ?? null,
    edit_call: edit?.seq ?? null,
    server_calls: received.length,
    server_calls_with_value: answeredWithValue.length,
    early_calls: early.map((call) => call.seq),
    recovered_after_notice: early.length > 0 && early.every(loadedLater),
  };
  const earlyNote = early.length === 0
    ? ""
    : facts.recovered_after_notice
    ? `; early call ${early.map((c) => `#${c.seq}`).join(", ")} before loading, recovered after ` +
      "the notice"
    : `; early call ${early.map((c) => `#${c.seq}`).join(", ")} before loading, never recovered`;

  if (from === undefined) {
    const tried = calls.filter((call) => LOADERS.has(call.name)).length;
    return fail(
      tried === 0
        ? `no loading call (${[...LOADERS].join(", ")}) naming ${fullName} ` +
          `(tools called: ${sequence(calls)})`
        : `${tried} loading call(s) (${[...LOADERS].join(", ")}), none successful naming ` +
          fullName,
    );
  }
  if (!lookup) {
    return fail(
      `${
        load ? `loaded at call #${load.seq}` : "offered up front"
      }, but no later successful ${fullName} call with ` +
        `${JSON.stringify(spec.arguments)} returned "${spec.expect}"`,
    );
  }
  if (answeredWithValue.length === 0) {
    return fail(
      `call #${lookup.seq} returned "${spec.expect}", but the server log ${spec.server_log} ` +
        `shows no tools/call of ${spec.tool} answered with it (${received.length} received)`,
    );
  }
  if (!edit) {
    return fail(
      `looked up at call #${lookup.seq}, but no successful ${spec.edit_tool} followed`,
    );
  }
  return {
    pass: true,
    detail:
      `${
        load ? `load #${load.seq}` : "offered up front"
      } → ${spec.tool} #${lookup.seq} (server answered ` +
      `${answeredWithValue.length}×) → ${spec.edit_tool} #${edit.seq}${earlyNote}`,
    facts,
  };

  function fail(reason: string) {
    return { pass: false, detail: reason + earlyNote, facts };
  }
}

/** Calls that load MCP definitions: the loader, and search mode's search with `load`. */
const LOADERS = new Set(["load_mcp_tool", "search_mcp_tools"]);

function namesOf(call: CallEntry): string[] {
  const args = call.args as { names?: unknown; load?: unknown } | undefined;
  const names = call.name === "search_mcp_tools" ? args?.load : args?.names;
  return Array.isArray(names) ? names.filter((name) => typeof name === "string") : [];
}

/** True when every expected argument is present with the same value. */
function matches(args: unknown, expected: Record<string, unknown>): boolean {
  if (!args || typeof args !== "object") return Object.keys(expected).length === 0;
  const actual = args as Record<string, unknown>;
  return Object.entries(expected).every(([key, value]) =>
    JSON.stringify(actual[key]) === JSON.stringify(value)
  );
}

function sequence(calls: CallEntry[]): string {
  if (calls.length === 0) return "none";
  const names = calls.map((call) => call.name);
  return names.length > 8
    ? `${names.slice(0, 8).join(", ")}, … (${names.length})`
    : names.join(", ");
}
