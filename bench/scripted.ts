/**
 * The scripted model as the benchmark uses it: every turn notes when its request arrived and
 * how large the request body was, so timings and context sizes come from what hel sent.
 *
 * @module
 */
import { estimateTokens } from "../core/text.ts";
import {
  type RecordedRequest,
  type ScriptedModel,
  type ScriptTurn,
  startScriptedModel,
} from "../fixtures/scripted_model.ts";

/** A turn given as data (the benchmark computes nothing per request). */
export type PlainTurn = Exclude<ScriptTurn, (request: RecordedRequest) => unknown>;

/** One request as the model saw it. */
export interface Arrival {
  /** performance.now() of this process when the request arrived. */
  at: number;
  /** UTF-8 bytes of the request body (JSON). */
  bytes: number;
  /** Estimated tokens of the request body (hel's own estimate: characters / 4). */
  tokens: number;
  request: RecordedRequest;
}

/** A scripted model that records arrivals; `onArrival` runs before the turn is answered. */
export interface TimedModel extends AsyncDisposable {
  model: ScriptedModel;
  url: string;
  arrivals: Arrival[];
}

/**
 * Starts the model with `turns` (data, or a policy that reads the request); `onArrival` may
 * probe hel while it waits for the answer.
 */
export function timedModel(
  turns: (PlainTurn | ((request: RecordedRequest) => ScriptTurn))[],
  onArrival?: (arrival: Arrival, index: number) => void,
): TimedModel {
  const arrivals: Arrival[] = [];
  const encoder = new TextEncoder();
  const model = startScriptedModel(turns.map((turn, index) => (request: RecordedRequest) => {
    const arrival = {
      at: performance.now(),
      bytes: encoder.encode(JSON.stringify(request.body)).length,
      tokens: estimateTokens(request.body),
      request,
    };
    arrivals.push(arrival);
    onArrival?.(arrival, index);
    return typeof turn === "function" ? turn(request) : turn;
  }));
  return {
    model,
    url: model.url,
    arrivals,
    [Symbol.asyncDispose]: () => model.close(),
  };
}

/** Throws unless every turn was played. */
export function expectConsumed(timed: TimedModel, what: string): void {
  if (timed.model.remaining() !== 0) {
    throw new Error(`${what}: ${timed.model.remaining()} scripted turns were not played`);
  }
}

/** The sizes of a trajectory: its requests, the first one, and all of them summed. */
export interface TrajectorySizes {
  requests: number;
  firstBytes: number;
  firstTokens: number;
  totalBytes: number;
  totalTokens: number;
}

/**
 * Sums every request, since each carries the conversation so far and is billed whole. Throws
 * when no request came.
 */
export function trajectorySizes(arrivals: readonly Arrival[]): TrajectorySizes {
  const first = arrivals[0];
  if (!first) throw new Error("bench: hel sent the model no request");
  return {
    requests: arrivals.length,
    firstBytes: first.bytes,
    firstTokens: first.tokens,
    totalBytes: arrivals.reduce((sum, a) => sum + a.bytes, 0),
    totalTokens: arrivals.reduce((sum, a) => sum + a.tokens, 0),
  };
}
