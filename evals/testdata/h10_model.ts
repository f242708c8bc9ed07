/**
 * A scripted stand-in for the model of lab h10, for offline runs of `deno task eval h10`.
 * It plays the scripted model (fixtures/scripted_model.ts) with a policy instead of a fixed
 * list, so it fits any number of runs in any order:
 *
 * - offered `load_mcp_tool`: load `mcp__inventory__lookup_port`, call it for `api`, put the
 *   port it got into config.ini with `search_replace`, answer;
 * - offered `search_mcp_tools` (hel's search mode): search for the port lookup, load
 *   `mcp__inventory__lookup_port` when the answer lists it (else give up, saying so), then as
 *   above;
 * - offered the lookup itself (`--mcp-eager`): call it at once, then as above;
 * - not offered it (hel without MCP): read config.ini, guess a port (8080), edit, answer.
 *
 * Run it: `deno run -A evals/testdata/h10_model.ts` prints the base URL to pass as
 * `--base-url`; it serves until stopped.
 *
 * @module
 */
import {
  type RecordedRequest,
  type ScriptTurn,
  startScriptedModel,
} from "../../fixtures/scripted_model.ts";

const LOOKUP = "mcp__inventory__lookup_port";
const SEARCH = "search_mcp_tools";
/** What the policy searches for: the task in a few words, as a model would put it. */
export const PORT_QUERY = "look up the port assigned to a service";

function lastToolAnswer(request: RecordedRequest): { name: string; content: string } | undefined {
  const messages = request.messages;
  const last = messages[messages.length - 1];
  if (last?.role !== "tool") return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    // deno-lint-ignore no-explicit-any
    const call = messages[i]?.tool_calls?.find((c: any) => c.id === last.tool_call_id);
    if (call) return { name: call.function.name, content: String(last.content) };
  }
  return undefined;
}

/** The next turn for a request, as a model following the task would take it. */
export function h10Policy(request: RecordedRequest): ScriptTurn {
  const previous = lastToolAnswer(request);
  const edit = (port: string) => ({
    toolCalls: [{
      name: "search_replace",
      arguments: { path: "config.ini", search: "port=7000", replace: `port=${port}` },
    }],
  });
  const call = { toolCalls: [{ name: LOOKUP, arguments: { service: "api" } }] };
  if (!previous) {
    if (request.toolNames.includes(LOOKUP)) return call;
    if (request.toolNames.includes(SEARCH)) {
      return { toolCalls: [{ name: SEARCH, arguments: { query: PORT_QUERY } }] };
    }
    return request.toolNames.includes("load_mcp_tool")
      ? { toolCalls: [{ name: "load_mcp_tool", arguments: { names: [LOOKUP] } }] }
      : { toolCalls: [{ name: "read_file", arguments: { path: "config.ini" } }] };
  }
  if (
    (previous.name === "load_mcp_tool" || previous.name === SEARCH) &&
    request.toolNames.includes(LOOKUP)
  ) {
    return call;
  }
  if (previous.name === SEARCH) {
    return previous.content.includes(LOOKUP)
      ? { toolCalls: [{ name: SEARCH, arguments: { load: [LOOKUP] } }] }
      : { text: `The search did not find ${LOOKUP}: ${previous.content.slice(0, 200)}` };
  }
  const port = previous.name === LOOKUP ? /\b(\d{2,5})\b/.exec(previous.content)?.[1] : undefined;
  if (port) return edit(port);
  if (previous.name === "read_file") return edit("8080");
  return { text: `Done: ${previous.name} said ${previous.content.split("\n")[0]}` };
}

if (import.meta.main) {
  const model = startScriptedModel(Array.from({ length: 100_000 }, () => h10Policy));
  console.log(model.url);
}
