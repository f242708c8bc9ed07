/**
 * Reads a run's raw logs back: the model exchanges of `raw/requests.jsonl` become a timeline
 * of requests (which tools each offered) and tool calls (what the model asked, what it was
 * told), and an MCP server's message log becomes the list of requests it received with its
 * replies. Checks and the report both read runs through here, so they agree.
 *
 * @module
 */

/** One model request as hel sent it. */
export interface RequestEntry {
  /** 1-based position in `raw/requests.jsonl`. */
  seq: number;
  purpose: string;
  /** Names of the tools offered, in order. */
  toolNames: string[];
  ok: boolean;
}

/** One tool call the model asked for, with the answer it got (when a later request shows it). */
export interface CallEntry {
  /** 1-based position among all calls of the run. */
  seq: number;
  /** The request whose response asked for the call. */
  requestSeq: number;
  id: string;
  name: string;
  /** Decoded arguments, or the raw string when it was not a JSON object. */
  args: unknown;
  /** The model-visible result text; null when no later request carried it. */
  result: string | null;
  /** From the result text (`error: ` means failure); null when the result is unknown. */
  ok: boolean | null;
}

/** A run's conversation as the raw requests show it. */
export interface Timeline {
  requests: RequestEntry[];
  calls: CallEntry[];
}

/** Reads a JSON-lines file; a missing file is empty, an unparsable line is skipped. */
export async function readJsonLines(path: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const items: unknown[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      items.push(JSON.parse(line));
    } catch { /* a torn last line from a killed process: ignore it */ }
  }
  return items;
}

// deno-lint-ignore no-explicit-any
type Json = any;

/** Builds the timeline from `<runDir>/raw/requests.jsonl`. */
export async function readTimeline(runDir: string): Promise<Timeline> {
  const entries = await readJsonLines(`${runDir}/raw/requests.jsonl`) as Json[];
  const requests: RequestEntry[] = [];
  const results = new Map<string, string>();
  const calls: CallEntry[] = [];
  entries.forEach((entry, index) => {
    const seq = typeof entry?.seq === "number" ? entry.seq : index + 1;
    const tools = Array.isArray(entry?.request?.tools) ? entry.request.tools : [];
    requests.push({
      seq,
      purpose: String(entry?.purpose ?? "conversation"),
      toolNames: tools.map((tool: Json) => String(tool?.function?.name)),
      ok: entry?.response !== undefined,
    });
    const messages = Array.isArray(entry?.request?.messages) ? entry.request.messages : [];
    for (const message of messages) {
      if (message?.role === "tool" && typeof message.tool_call_id === "string") {
        if (!results.has(message.tool_call_id)) {
          results.set(message.tool_call_id, String(message.content ?? ""));
        }
      }
    }
    if (entry?.purpose !== undefined && entry.purpose !== "conversation") return;
    const asked = entry?.response?.choices?.[0]?.message?.tool_calls;
    for (const call of Array.isArray(asked) ? asked : []) {
      calls.push({
        seq: calls.length + 1,
        requestSeq: seq,
        id: String(call?.id ?? ""),
        name: String(call?.function?.name ?? ""),
        args: decodeArguments(call?.function?.arguments),
        result: null,
        ok: null,
      });
    }
  });
  for (const call of calls) {
    const result = results.get(call.id);
    if (result === undefined) continue;
    call.result = result;
    call.ok = !result.startsWith("error: ");
  }
  return { requests, calls };
}

function decodeArguments(raw: unknown): unknown {
  if (typeof raw !== "string") return raw ?? {};
  if (raw.trim() === "") return {};
  try {
    const value = JSON.parse(raw);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : raw;
  } catch {
    return raw;
  }
}

/** A request an MCP server received, with the reply it sent (if any). */
export interface ServerExchange {
  method: string;
  id: unknown;
  params: Json;
  reply: Json | undefined;
}

/**
 * Reads a server log of `{direction, message}` lines (as the task's inventory server writes
 * them) and pairs each received request with the reply sent for its id.
 */
export async function readServerLog(path: string): Promise<ServerExchange[]> {
  const lines = await readJsonLines(path) as Json[];
  const exchanges: ServerExchange[] = [];
  const open = new Map<string, ServerExchange>();
  for (const line of lines) {
    const message = line?.message;
    if (!message || typeof message !== "object") continue;
    if (line.direction === "received" && typeof message.method === "string") {
      const exchange = {
        method: message.method,
        id: message.id,
        params: message.params,
        reply: undefined,
      };
      exchanges.push(exchange);
      if (message.id !== undefined && message.id !== null) {
        open.set(JSON.stringify(message.id), exchange);
      }
    } else if (line.direction === "sent" && message.id !== undefined) {
      const key = JSON.stringify(message.id);
      const exchange = open.get(key);
      if (exchange) {
        exchange.reply = message;
        open.delete(key);
      }
    }
  }
  return exchanges;
}

/** The text of an MCP tool result's text blocks, joined by newlines. */
export function resultText(reply: Json): string {
  const content = reply?.result?.content;
  if (!Array.isArray(content)) return "";
  return content.filter((block: Json) => block?.type === "text").map((block: Json) =>
    String(block.text)
  ).join("\n");
}

/** A short form of a call's arguments for tables: its path, names or first value. */
export function mainArgument(args: unknown): string {
  if (typeof args === "string") return args.length > 40 ? `${args.slice(0, 40)}…` : args;
  if (!args || typeof args !== "object") return "";
  const record = args as Record<string, unknown>;
  const value = record.path ?? record.names ?? record.service ?? Object.values(record)[0];
  const text = Array.isArray(value) ? value.join(", ") : value === undefined ? "" : String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/**
 * How the run's MCP configuration and servers started, from hel's MCP trace (`raw/mcp.jsonl`):
 * e.g. `inventory connected (2 tools)` or `inventory skipped: command "python3" was not found`.
 * Empty when hel ran without its MCP plugin or the project has no MCP configuration.
 */
export async function mcpStartup(runDir: string): Promise<{ line: string; ok: boolean }[]> {
  const found: { line: string; ok: boolean }[] = [];
  for (const entry of await readJsonLines(`${runDir}/raw/mcp.jsonl`) as Json[]) {
    if (entry?.event === "config" && entry.status !== "trusted") {
      const why = entry.message ?? (Array.isArray(entry.problems) ? entry.problems.join("; ") : "");
      found.push({ line: `configuration ${entry.status}${why ? `: ${why}` : ""}`, ok: false });
    } else if (entry?.event === "server" && entry.status === "connected") {
      found.push({ line: `${entry.server} connected (${entry.tools} tools)`, ok: true });
    } else if (entry?.event === "server") {
      found.push({ line: `${entry.server} ${entry.status}: ${entry.reason ?? ""}`, ok: false });
    }
  }
  return found;
}
