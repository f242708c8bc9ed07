import assert from "node:assert/strict";
import { type ScriptTurn, startScriptedModel } from "../../fixtures/scripted_model.ts";
import type { ModelExchangeEvent } from "../../core/events.ts";
import { createOpenAIClient } from "./openai_client.ts";

async function complete(turns: ScriptTurn[], stream: boolean, maxRetries = 3) {
  const server = startScriptedModel(turns, { usageStyle: "openai" });
  const exchanges: ModelExchangeEvent[] = [];
  const retries: string[] = [];
  const streamed: string[] = [];
  try {
    const client = createOpenAIClient({
      baseURL: server.url,
      apiKey: "k",
      model: "m",
      stream,
      requestTimeoutMs: 5_000,
      maxRetries,
      totalTimeoutMs: 10_000,
      backoffMs: 5,
      onExchange: (e) => exchanges.push(e),
      onRetry: (_attempt, _delay, reason) => retries.push(reason),
    });
    const reply = await client.complete(
      { messages: [{ role: "user", content: "hi" }], tools: [], purpose: "conversation" },
      { signal: new AbortController().signal, onText: (t) => streamed.push(t) },
    );
    return { reply, server, exchanges, retries, streamed };
  } finally {
    await server.close();
  }
}

/** One request to a hand-written server (`handler`), for answers the scripted model never gives. */
async function completeAgainst(
  handler: (request: Request) => Response | Promise<Response>,
  options: { stream?: boolean; maxRetries?: number } = {},
) {
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  const client = createOpenAIClient({
    baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
    apiKey: "k",
    model: "m",
    stream: options.stream ?? false,
    requestTimeoutMs: 5_000,
    maxRetries: options.maxRetries ?? 3,
    totalTimeoutMs: 5_000,
    backoffMs: 5,
  });
  return await client.complete(
    { messages: [{ role: "user", content: "hi" }], tools: [], purpose: "conversation" },
    { signal: new AbortController().signal },
  );
}

for (const stream of [true, false]) {
  const mode = stream ? "streaming" : "non-streaming";

  Deno.test(`OpenAI client (${mode}) assembles tool calls and keeps reasoning_content`, async () => {
    const { reply, server, streamed } = await complete([{
      toolCalls: [{ id: "c1", name: "read_file", arguments: { path: "a long/path.txt" } }, {
        id: "c2",
        name: "grep",
        arguments: { pattern: "x" },
      }],
      text: "let me look",
      reasoning: "thinking hard",
    }], stream);
    assert.ok(reply.ok);
    assert.deepEqual(reply.message.tool_calls, [
      {
        id: "c1",
        type: "function",
        function: { name: "read_file", arguments: '{"path":"a long/path.txt"}' },
      },
      { id: "c2", type: "function", function: { name: "grep", arguments: '{"pattern":"x"}' } },
    ]);
    assert.equal(reply.message.reasoning_content, "thinking hard");
    assert.equal(reply.message.content, "let me look");
    assert.equal(reply.usage?.cachedTokens, Math.floor(reply.usage!.promptTokens / 2));
    assert.equal(server.requests[0]!.body.stream ?? false, stream);
    if (stream) assert.equal(streamed.join(""), "let me look");
  });

  Deno.test(`OpenAI client (${mode}) retries 429, 500, malformed and dropped responses`, async () => {
    const { reply, retries, exchanges } = await complete([
      { fail: 429 },
      { fail: 500 },
      { fail: "malformed" },
      { text: "finally" },
    ], stream);
    assert.ok(reply.ok);
    assert.equal(reply.message.content, "finally");
    assert.equal(retries.length, 3);
    assert.match(retries[0]!, /HTTP 429/);
    assert.match(retries[1]!, /HTTP 500/);
    assert.equal(exchanges.length, 4, "every attempt is recorded");
  });

  Deno.test(`OpenAI client (${mode}) gives up after its retries with a clear error`, async () => {
    const { reply, server } = await complete(
      [{ fail: 500 }, { fail: 500 }, { fail: 500 }],
      stream,
      2,
    );
    assert.equal(reply.ok, false);
    assert.match(!reply.ok ? reply.error : "", /HTTP 500.*gave up after 3 attempts/);
    assert.equal(server.remaining(), 0);
  });
}

Deno.test("OpenAI client does not retry a 400 (the request itself is wrong)", async () => {
  const { reply, retries } = await complete([], false);
  assert.equal(reply.ok, false);
  assert.match(!reply.ok ? reply.error : "", /HTTP 400.*no turns left/);
  assert.equal(retries.length, 0);
});

Deno.test("OpenAI client retries a connection dropped mid-body", async () => {
  const { reply, retries } = await complete([{ fail: "drop" }, { text: "ok" }], false);
  assert.ok(reply.ok);
  assert.equal(retries.length, 1);
});

for (const stream of [true, false]) {
  Deno.test(`OpenAI client times out a server that goes silent after the headers (${stream ? "streaming" : "non-streaming"})`, async () => {
    let requests = 0;
    const stalled: ReadableStreamDefaultController[] = [];
    await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (
      request,
    ) => {
      await request.text();
      const first = requests++ === 0;
      const chunk = {
        id: "c",
        object: "chat.completion.chunk",
        created: 0,
        model: "m",
        choices: [{
          index: 0,
          delta: { content: first ? "partial " : "whole" },
          finish_reason: null,
        }],
      };
      const done = { ...chunk, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] };
      const text = stream
        ? `data: ${JSON.stringify(chunk)}\n\n` + (first ? "" : `data: ${JSON.stringify(done)}\n\n`)
        : first
        ? '{"id": "c", '
        : JSON.stringify({
          ...chunk,
          choices: [{
            index: 0,
            message: { role: "assistant", content: "whole" },
            finish_reason: "stop",
          }],
        });
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(text));
          if (first) stalled.push(controller); // then nothing more, ever
          else controller.close();
        },
      });
      const type = stream ? "text/event-stream" : "application/json";
      return new Response(body, { headers: { "content-type": type } });
    });
    const retries: string[] = [];
    const client = createOpenAIClient({
      baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
      apiKey: "k",
      model: "m",
      stream,
      requestTimeoutMs: 1_500,
      maxRetries: 1,
      totalTimeoutMs: 10_000,
      backoffMs: 5,
      onRetry: (_attempt, _delay, reason) => retries.push(reason),
    });
    // Without its own bound the client would wait forever: fail instead of hanging the suite.
    const guard = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<"hung">((resolve) => {
      timer = setTimeout(() => {
        guard.abort();
        resolve("hung");
      }, 10_000);
    });
    const reply = await Promise.race([
      client.complete(
        { messages: [{ role: "user", content: "hi" }], tools: [], purpose: "conversation" },
        { signal: guard.signal },
      ),
      hung,
    ]);
    clearTimeout(timer);
    assert.notEqual(reply, "hung", "the client was still waiting after 10 s");
    if (reply === "hung") return;
    for (const controller of stalled) {
      try {
        controller.close();
      } catch { /* hel already dropped that connection */ }
    }
    // The stalled attempt is a timeout, never a partial answer; the retry gets the whole one.
    assert.deepEqual(retries, ["model request timed out: nothing arrived for 1.5 s (--timeout)"]);
    assert.ok(reply.ok);
    assert.equal(reply.message.content, "whole");
  });
}

Deno.test("OpenAI client shows the error a server sends with HTTP 200 instead of choices", async () => {
  const reply = await completeAgainst(
    () => Response.json({ error: { message: "upstream provider overloaded", code: 502 } }),
    { maxRetries: 0 },
  );
  assert.equal(reply.ok, false);
  assert.equal(
    !reply.ok && reply.error,
    "model response has no choices: the server says: upstream provider overloaded",
  );
});

Deno.test("OpenAI client says how to fit a conversation over the model's context window", async () => {
  const reply = await completeAgainst(() =>
    Response.json({
      error: {
        message: "This model's maximum context length is 131072 tokens. However, you " +
          "requested 140000 tokens. Please reduce the length of the messages.",
        type: "invalid_request_error",
      },
    }, { status: 400 })
  );
  assert.equal(reply.ok, false);
  assert.match(!reply.ok ? reply.error : "", /^model API returned HTTP 400: .*maximum context/);
  assert.match(!reply.ok ? reply.error : "", /give its size with --context-window .*--resume$/);
});

Deno.test("OpenAI client says what to check on HTTP 404", async () => {
  const reply = await completeAgainst(
    () => Response.json({ error: { message: "nope" } }, { status: 404 }),
    { stream: true },
  );
  assert.equal(reply.ok, false);
  assert.equal(
    !reply.ok && reply.error,
    "model API returned HTTP 404: 404 nope; check --base-url (OpenAI-compatible servers " +
      "usually end in /v1) and --model",
  );
});

Deno.test("OpenAI client reads answer text sent as a list of content parts", async () => {
  const parts = [
    { type: "thinking", thinking: [{ type: "text", text: "hidden reasoning" }] },
    { type: "text", text: "the answer" },
    { type: "text", text: " in two parts" },
  ];
  const whole = await completeAgainst(() =>
    Response.json({
      choices: [{ message: { role: "assistant", content: parts }, finish_reason: "stop" }],
    })
  );
  assert.ok(whole.ok);
  assert.equal(whole.message.content, "the answer in two parts");
  const chunk = (content: unknown) =>
    `data: ${JSON.stringify({ choices: [{ delta: { content }, finish_reason: null }] })}\n\n`;
  const streamed = await completeAgainst(
    () =>
      new Response(
        chunk([parts[0]]) + chunk([parts[1]]) + chunk(" in two parts") + "data: [DONE]\n\n",
        {
          headers: { "content-type": "text/event-stream" },
        },
      ),
    { stream: true },
  );
  assert.ok(streamed.ok);
  assert.equal(streamed.message.content, "the answer in two parts");
});
