/**
 * A scripted stand-in for the model of lab h10-scale, for offline runs of
 * `deno task eval h10-scale`: h10's policy (h10_model.ts) plus the two ways the scale lab
 * offers tools that h10 does not use:
 *
 * - offered the lookup itself in the first request (`--mcp-eager`): call it at once;
 * - offered `search_mcp_tools` (search mode): search for the port lookup and load it in the
 *   same call, then call it, then as h10.
 *
 * Tool-call ids are made from the conversation's length, not from a counter over all requests,
 * so a run's requests are the same whatever runs share the model and in whatever order
 * (parallel and sharded runs compare byte for byte with serial ones).
 *
 * Run it: `deno run -A evals/testdata/h10_scale_model.ts` prints the base URL to pass as
 * `--base-url`; it serves until stopped.
 *
 * @module
 */
import {
  type RecordedRequest,
  type ScriptTurn,
  startScriptedModel,
} from "../../fixtures/scripted_model.ts";
import { h10Policy } from "./h10_model.ts";

const LOOKUP = "mcp__inventory__lookup_port";
const SEARCH = "search_mcp_tools";

/** The name of the tool whose answer ends the conversation, if one does. */
function answered(request: RecordedRequest): string | undefined {
  const messages = request.messages;
  if (messages.at(-1)?.role !== "tool") return undefined;
  const asked = messages.findLast((message) => message.role === "assistant");
  // deno-lint-ignore no-explicit-any
  return asked?.tool_calls?.find((c: any) => c.id === messages.at(-1)?.tool_call_id)?.function
    ?.name;
}

function scaleTurn(request: RecordedRequest): ScriptTurn | undefined {
  const lookup: ScriptTurn = { toolCalls: [{ name: LOOKUP, arguments: { service: "api" } }] };
  if (answered(request) === SEARCH && request.toolNames.includes(LOOKUP)) return lookup;
  if (request.messages.some((message) => message.role === "tool")) return undefined;
  if (request.toolNames.includes(LOOKUP)) return lookup;
  if (request.toolNames.includes(SEARCH)) {
    const query = "look up the port assigned to a service";
    return { toolCalls: [{ name: SEARCH, arguments: { query, load: [LOOKUP] } }] };
  }
  return undefined;
}

/** The next turn of a run of h10 or h10-scale, with ids that depend only on the run. */
export function scalePolicy(request: RecordedRequest): ScriptTurn {
  const turn = scaleTurn(request) ?? h10Policy(request);
  if (!("toolCalls" in turn) || !turn.toolCalls) return turn;
  const step = request.messages.length;
  return {
    ...turn,
    toolCalls: turn.toolCalls.map((call, i) => ({ ...call, id: `call_${step}_${i}` })),
  };
}

if (import.meta.main) {
  const model = startScriptedModel(Array.from({ length: 100_000 }, () => scalePolicy));
  console.log(model.url);
}
