/**
 * A {@link ModelClient} for any OpenAI-compatible Chat Completions server (DeepSeek by
 * default), through the `openai` package. It streams or not, retries 429, 5xx and network
 * failures with backoff inside a total time bound, and turns every failure into data.
 *
 * @module
 */
import type OpenAI from "openai";
import type { ModelExchangeEvent } from "../../core/events.ts";
import type {
  CompleteOptions,
  ModelClient,
  ModelReply,
  ModelRequest,
  ModelSuccess,
} from "../../core/model.ts";
import { contentText } from "./content_parts.ts";
import { type ModelInput, withMediaParts } from "./media_parts.ts";
import { joinAdjacentUserMessages } from "./joined_user_messages.ts";
import { assembleStream, type StreamChunk } from "./stream_assembly.ts";
import type { AssistantMessage } from "../../core/types.ts";
import { readUsage } from "../../core/usage.ts";
import {
  type Attempt,
  classify,
  type FailureContext,
  notAnApi,
  pageContentType,
  type Sdk,
} from "./failures.ts";

/** Settings of the client; all times in milliseconds. */
export interface OpenAIClientOptions {
  baseURL: string;
  /** Undefined: no key (a local server); requests then carry no Authorization header. */
  apiKey: string | undefined;
  /** The environment variable the key came from, for the message when the server refuses it. */
  apiKeyName?: string;
  model: string;
  stream: boolean;
  maxOutputTokens?: number;
  /** What the model takes besides text (images, audio from tool results); text only if absent. */
  modelInput?: readonly ModelInput[];
  /** Bound on one HTTP request. */
  requestTimeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Bound on all attempts of one completion together, waits included. */
  totalTimeoutMs: number;
  /** First backoff delay; doubled each retry unless the server says `retry-after`. */
  backoffMs: number;
  onExchange?: (event: ModelExchangeEvent) => void;
  /** Hears each retry before its wait: the attempt about to be made, and the cause alone. */
  onRetry?: (attempt: number, delayMs: number, reason: string) => void;
}

/** The request field that carries the output limit. */
type LimitField = "max_tokens" | "max_completion_tokens";

let sdk: Promise<Sdk> | undefined;

/**
 * The SDK, loaded with the first request: it costs a start several hundredths of a second of
 * CPU, which commands that ask the model nothing (`--version`, `sessions`, `trust`) need not pay.
 */
function loadSdk(): Promise<Sdk> {
  return sdk ??= import("openai").then((module) => module.default);
}

/** Creates the client. */
export function createOpenAIClient(options: OpenAIClientOptions): ModelClient {
  let client: OpenAI | undefined;
  // OpenAI's reasoning models refuse `max_tokens`; once one says so, the client switches.
  let limitField: LimitField = "max_tokens";
  return {
    async complete(request: ModelRequest, call: CompleteOptions): Promise<ModelReply> {
      const OpenAISdk = await loadSdk();
      client ??= new OpenAISdk({
        baseURL: options.baseURL,
        // The SDK insists on a key; without one the header it would make is removed (null).
        apiKey: options.apiKey ?? "none",
        ...(options.apiKey === undefined ? { defaultHeaders: { Authorization: null } } : {}),
        maxRetries: 0, // hel retries itself, so streams that break midway are retried too
        timeout: options.requestTimeoutMs,
      });
      let body = requestBody(request, options, limitField);
      const deadline = Date.now() + options.totalTimeoutMs;
      for (let attempt = 0;; attempt++) {
        const result = await attemptOnce(OpenAISdk, client, body, call, options);
        options.onExchange?.({
          type: "model_exchange",
          purpose: request.purpose,
          request: body,
          ...(result.reply.ok ? { response: rawResponse(result.reply) } : {
            error: result.reply.error,
          }),
        });
        if (result.wantsCompletionTokens && limitField === "max_tokens") {
          limitField = "max_completion_tokens";
          body = requestBody(request, options, limitField);
          attempt--; // the same attempt again, with the field the server asked for
          continue;
        }
        if (result.reply.ok) return withCallIds(result.reply);
        if (!result.retryable) return result.reply;
        if (attempt >= options.maxRetries) {
          return {
            ...result.reply,
            error: `${result.reply.error} (gave up after ${attempt + 1} attempts)`,
          };
        }
        const delay = result.retryAfterMs ?? options.backoffMs * 2 ** attempt;
        if (Date.now() + delay > deadline) {
          return {
            ...result.reply,
            error: `${result.reply.error} (gave up: retry time bound reached)`,
          };
        }
        options.onRetry?.(attempt + 1, delay, result.reason ?? result.reply.error);
        if (!await sleep(delay, call.signal)) {
          return { ok: false, kind: "interrupted", error: "interrupted" };
        }
      }
    },
  };
}

function requestBody(request: ModelRequest, options: OpenAIClientOptions, limitField: LimitField) {
  return {
    model: options.model,
    messages: joinAdjacentUserMessages(
      withMediaParts(request.messages, request.media, options.modelInput ?? ["text"]),
    ),
    ...(request.tools.length > 0 ? { tools: request.tools } : {}),
    ...(options.maxOutputTokens ? { [limitField]: options.maxOutputTokens } : {}),
    ...(options.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

/**
 * One HTTP attempt. The SDK's timeout ends when the response headers arrive, so a server that
 * then stalls would hold hel forever: here `timeoutMs` bounds a whole non-streamed response and
 * the silence between two chunks of a streamed one (a long answer that keeps coming is fine).
 */
async function attemptOnce(
  sdk: Sdk,
  client: OpenAI,
  body: ReturnType<typeof requestBody>,
  call: CompleteOptions,
  options: OpenAIClientOptions,
): Promise<Attempt> {
  const timeoutMs = options.requestTimeoutMs;
  const failure: FailureContext = options; // the base URL and the key's variable
  const controller = new AbortController();
  const onAbort = () => controller.abort(call.signal.reason);
  call.signal.addEventListener("abort", onAbort, { once: true });
  if (call.signal.aborted) onAbort();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error("timed out"));
    }, timeoutMs);
  };
  arm();
  try {
    const signal = { signal: controller.signal };
    if (body.stream) {
      const { data: stream, response } = await client.chat.completions
        // deno-lint-ignore no-explicit-any
        .create(body as any, signal).withResponse();
      const type = response.headers.get("content-type");
      if (pageContentType(type)) return notAnApi(type, failure);
      let chunks = 0;
      const reply = await assembleStream(
        rearmOnEachChunk(stream as unknown as AsyncIterable<StreamChunk>, () => {
          chunks++;
          arm();
        }),
        call,
      );
      // An aborted stream may just end, and what it carried so far is not the whole answer.
      if (timedOut || call.signal.aborted) throw new Error("stream aborted");
      // Not one event in a body that is neither a stream nor JSON: plain text, not an API.
      if (chunks === 0 && !/event-stream|json/i.test(type ?? "")) return notAnApi(type, failure);
      // A stream that carried nothing usable (a proxy's error page, a cut) is worth a retry.
      return { reply, retryable: !reply.ok };
    }
    // The body is read here rather than by the SDK, so an answer that is not JSON is named.
    const response = await client.chat.completions
      // deno-lint-ignore no-explicit-any
      .create(body as any, signal).asResponse();
    return completionAttempt(await response.text(), response.headers.get("content-type"), failure);
  } catch (error) {
    // The SDK's own timer (same bound) may fire first: one message either way.
    const sdkTimeout = error instanceof sdk.APIConnectionTimeoutError;
    if ((timedOut || sdkTimeout) && !call.signal.aborted) {
      const seconds = timeoutMs / 1000;
      return {
        reply: {
          ok: false,
          kind: "timeout",
          error: `model request timed out: nothing arrived for ${seconds} s (--timeout)`,
        },
        retryable: true,
      };
    }
    return classify(sdk, error, call.signal, failure);
  } finally {
    clearTimeout(timer);
    call.signal.removeEventListener("abort", onAbort);
  }
}

async function* rearmOnEachChunk<T>(chunks: AsyncIterable<T>, arm: () => void) {
  for await (const chunk of chunks) {
    arm();
    yield chunk;
  }
}

/**
 * A non-streamed answer's body: a completion, a cut JSON body (worth a retry), or something
 * that is no API's answer at all (a web page, plain text: no retry makes it one).
 */
function completionAttempt(
  text: string,
  contentType: string | null,
  failure: FailureContext,
): Attempt {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    if (pageContentType(contentType) || !/^\s*[{[]/.test(text)) {
      return notAnApi(contentType, failure, true);
    }
    const reason = `model response is not valid JSON (${(error as Error).message})`;
    return { reply: { ok: false, kind: "error", error: reason }, retryable: true };
  }
  if (parsed === null || typeof parsed !== "object") return notAnApi(contentType, failure);
  return { reply: fromCompletion(parsed as Record<string, unknown>), retryable: false };
}

function fromCompletion(response: Record<string, unknown>): ModelReply {
  const choices = response.choices;
  const first = Array.isArray(choices) ? choices[0] as Record<string, unknown> : undefined;
  const message = first?.message as AssistantMessage | undefined;
  if (!message || typeof message !== "object") {
    // Some proxies answer HTTP 200 with an error object instead of choices: show its text.
    const error = response.error as { message?: unknown } | undefined;
    const detail = typeof error?.message === "string"
      ? `: the server says: ${error.message.slice(0, 500)}`
      : "";
    return { ok: false, kind: "error", error: `model response has no choices${detail}` };
  }
  if (message.content !== null) {
    const text = contentText(message.content);
    message.content = text === "" && (message.tool_calls?.length ?? 0) > 0 ? null : text;
  }
  return {
    ok: true,
    message,
    finishReason: typeof first?.finish_reason === "string" ? first.finish_reason : null,
    usage: readUsage(response.usage),
    model: typeof response.model === "string" ? response.model : undefined,
  };
}

/**
 * Gives every tool call an id. Some servers and proxies send none (or ""), and a `tool`
 * message must name the call it answers: without ids two calls of one response could not be
 * told apart, and the session could not be saved. Ids the server sent are kept as they are.
 */
function withCallIds(reply: ModelSuccess): ModelSuccess {
  for (const call of reply.message.tool_calls ?? []) {
    if (typeof call.id !== "string" || call.id === "") {
      call.id = `call_hel_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    }
  }
  return reply;
}

function rawResponse(reply: Extract<ModelReply, { ok: true }>) {
  return {
    model: reply.model,
    choices: [{ message: reply.message, finish_reason: reply.finishReason }],
    usage: reply.usage,
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
