/**
 * The command-line side of scheduling: `--parallel N`, `--shard K/N` and `--rpm N` become a
 * Schedule for the runner and, when requests are to be paced, the rate-limit proxy that hel
 * talks to instead of the endpoint.
 *
 * @module
 */
import { type RateLimitProxy, RequestPacer, startRateLimitProxy } from "./rate_limit.ts";
import type { Schedule } from "./runner.ts";
import { parseShard } from "./shard.ts";
import { SpecError } from "./spec.ts";

/** Requests per minute when runs go in parallel and `--rpm` is not given. */
const DEFAULT_PARALLEL_RPM = 60;

/** The scheduling flags as commander hands them over. */
export interface ScheduleFlags {
  parallel?: string;
  shard?: string;
  rpm?: string;
}

/** The value of a flag taking a whole number of at least `min` (and at most `max`, if given). */
export function wholeNumber(flag: string, text: string, min: number, max?: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || (max !== undefined && value > max)) {
    throw new SpecError(
      `${flag} ${text}: expected a whole number ` +
        (max === undefined ? `of at least ${min}` : `from ${min} to ${max}`),
    );
  }
  return value;
}

/** The most runs at a time `--parallel` takes. */
const MAX_PARALLEL = 64;

/** The runner's schedule and the pace toward the model (requests per minute; 0: unpaced). */
export function parseSchedule(
  flags: ScheduleFlags,
): Schedule & { parallel: number; rpm: number } {
  const parallel = flags.parallel === undefined ? 1 : wholeNumber("--parallel", flags.parallel, 1);
  // Each run is a hel process with its MCP servers: past this the machine, not the API, limits.
  if (parallel > MAX_PARALLEL) {
    throw new SpecError(`--parallel ${parallel}: at most ${MAX_PARALLEL} runs at a time`);
  }
  const rpm = flags.rpm !== undefined
    ? wholeNumber("--rpm", flags.rpm, 0)
    : parallel > 1
    ? DEFAULT_PARALLEL_RPM
    : 0;
  return {
    parallel,
    ...(flags.shard === undefined ? {} : { shard: parseShard(flags.shard) }),
    rpm,
  };
}

/** The proxy pacing hel's requests to `rpm` per minute; undefined when unpaced. */
export function paceRequests(baseUrl: string, rpm: number): RateLimitProxy | undefined {
  return rpm > 0 ? startRateLimitProxy(baseUrl, new RequestPacer(rpm)) : undefined;
}
