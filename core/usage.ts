/**
 * Token usage summed over a run: every model call counts, conversation and auxiliary alike.
 *
 * @module
 */
import type { Usage } from "./types.ts";

/** Usage of a whole run. A figure is undefined once any call failed to report it. */
export interface RunUsage {
  modelCalls: number;
  /** The calls that got an answer: 0 means the server never answered (no figures to show). */
  answeredCalls: number;
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  cachedTokens: number | undefined;
}

/** A fresh, empty tally. */
export function emptyUsage(): RunUsage {
  return { modelCalls: 0, answeredCalls: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
}

/** Adds one answered model call; `usage` is undefined when the server reported none. */
export function addUsage(total: RunUsage, usage: Usage | undefined): void {
  total.answeredCalls++;
  countCall(total, usage);
}

/** Adds one failed model call: it may have cost tokens no one reported. */
export function addFailedCall(total: RunUsage): void {
  countCall(total, undefined);
}

function countCall(total: RunUsage, usage: Usage | undefined): void {
  total.modelCalls++;
  const plus = (sum: number | undefined, value: number | undefined) =>
    sum === undefined || value === undefined ? undefined : sum + value;
  total.inputTokens = plus(total.inputTokens, usage?.promptTokens);
  total.outputTokens = plus(total.outputTokens, usage?.completionTokens);
  total.cachedTokens = plus(total.cachedTokens, usage?.cachedTokens);
}

/** Reads DeepSeek's and OpenAI's usage fields alike. */
export function readUsage(raw: unknown): Usage | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const usage = raw as Record<string, unknown>;
  if (typeof usage.prompt_tokens !== "number" || typeof usage.completion_tokens !== "number") {
    return undefined;
  }
  const details = usage.prompt_tokens_details as Record<string, unknown> | undefined;
  const cached = typeof usage.prompt_cache_hit_tokens === "number"
    ? usage.prompt_cache_hit_tokens
    : typeof details?.cached_tokens === "number"
    ? details.cached_tokens
    : undefined;
  return {
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
    ...(cached === undefined ? {} : { cachedTokens: cached }),
  };
}
