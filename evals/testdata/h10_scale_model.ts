/**
 * A scripted stand-in for the model of lab h10-scale, for offline runs of
 * `deno task eval h10-scale`: h10's policy (h10_model.ts, which also calls the lookup at once
 * when it is offered up front and searches for it in search mode).
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

/** The next turn of a run of h10 or h10-scale, with ids that depend only on the run. */
export function scalePolicy(request: RecordedRequest): ScriptTurn {
  const turn = h10Policy(request);
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
