/**
 * The conversation's model client, built from the flags: hel's OpenAI-compatible client with
 * its retries, or whatever a test passes instead.
 *
 * @module
 */
import type { HelEvent } from "../core/events.ts";
import type { ModelClient } from "../core/model.ts";
import { createOpenAIClient } from "../agent/model/openai_client.ts";
import { apiKeyVariable } from "./api_key.ts";
import type { RootFlags } from "./root_flags.ts";

/**
 * Builds the conversation's model client from the flags; `emit` hears its exchanges and
 * retries. hel's is {@link openAIClientFromFlags}; tests give a scripted model instead.
 */
export type ModelFactory = (
  flags: RootFlags,
  /** Undefined for a loopback server without a key: requests then carry no Authorization. */
  apiKey: string | undefined,
  emit: (event: HelEvent) => void,
) => ModelClient;

/** Retries of a failed model request (429, 5xx, a dropped or refused connection). */
const MODEL_RETRIES = 4;

/**
 * The OpenAI-compatible client the flags describe, waiting `backoffMs` before the first retry
 * (doubled each time); tests shorten it to see every retry of a refused connection quickly.
 */
export function openAIClientFactory(backoffMs = 1_000): ModelFactory {
  return (flags, apiKey, emit) =>
    createOpenAIClient({
      baseURL: flags.baseUrl,
      apiKey,
      apiKeyName: apiKeyVariable(apiKey, flags),
      model: flags.model,
      stream: flags.stream,
      maxOutputTokens: flags.maxOutputTokens,
      modelInput: flags.modelInput,
      requestTimeoutMs: flags.timeout * 1000,
      maxRetries: MODEL_RETRIES,
      totalTimeoutMs: Math.max(flags.timeout * 1000 * 2, 60_000),
      backoffMs,
      onExchange: emit,
      onRetry: (attempt, delayMs, reason) =>
        emit({ type: "retry", attempt, maxRetries: MODEL_RETRIES, delayMs, reason }),
    });
}

/** The OpenAI-compatible client the flags describe. */
export const openAIClientFromFlags: ModelFactory = openAIClientFactory();
