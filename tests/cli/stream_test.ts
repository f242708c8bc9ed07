/**
 * OpenAI-compatible servers that differ from the scripted model, written here: Gemini's
 * streams (tool-call fragments without `index`, with a vendor field that must go back
 * unchanged) and OpenAI's reasoning models (which refuse `max_tokens`).
 */
import assert from "node:assert/strict";
import { tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const sse = (chunks: unknown[]) =>
  new Response(
    chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("") + "data: [DONE]\n\n",
    { headers: { "content-type": "text/event-stream" } },
  );

const chunk = (delta: unknown, finish: string | null = null) => ({
  id: "c",
  object: "chat.completion.chunk",
  created: 0,
  model: "gemini-like",
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const signature = { google: { thought_signature: "sig-1" } };

Deno.test("streamed tool calls without an index are run one by one and sent back with their vendor fields", async () => {
  await using project = await tempProject({ "a.txt": "alpha\n", "b.txt": "beta\n" });
  // deno-lint-ignore no-explicit-any
  const bodies: any[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (
    request,
  ) => {
    bodies.push(await request.json());
    if (bodies.length > 1) return sse([chunk({ content: "alpha and beta" }, "stop")]);
    return sse([
      chunk({
        role: "assistant",
        tool_calls: [{
          id: "call_a",
          type: "function",
          extra_content: signature,
          function: { name: "read_file", arguments: '{"path":' },
        }],
      }),
      chunk({ tool_calls: [{ function: { arguments: '"a.txt"}' } }] }),
      chunk({
        tool_calls: [{
          id: "call_b",
          type: "function",
          function: { name: "read_file", arguments: '{"path":"b.txt"}' },
        }],
      }),
      chunk({}, "stop"),
    ]);
  });
  const url = `http://127.0.0.1:${server.addr.port}/v1`;
  const result = await runHelInProcess([
    "--base-url",
    url,
    "--model",
    "m",
    "--access",
    "auto",
    "read",
  ], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "alpha and beta\n");
  assert.match(result.stderr, /^\[tool\] read_file \{"path":"a\.txt"\}$/m);
  assert.match(result.stderr, /^\[tool\] read_file \{"path":"b\.txt"\}$/m);
  const [assistant, first, second] = bodies[1].messages.slice(2);
  assert.deepEqual(assistant.tool_calls.map((call: { id: string }) => call.id), [
    "call_a",
    "call_b",
  ]);
  assert.deepEqual(assistant.tool_calls[0].extra_content, signature);
  assert.deepEqual([first.tool_call_id, first.content], ["call_a", "alpha\n"]);
  assert.deepEqual([second.tool_call_id, second.content], ["call_b", "beta\n"]);
});

Deno.test("a server that refuses max_tokens for max_completion_tokens gets the limit in that field", async () => {
  await using project = await tempProject({ "a.txt": "alpha\n" });
  // deno-lint-ignore no-explicit-any
  const bodies: any[] = [];
  const completion = (message: unknown) =>
    Response.json({
      id: "c",
      object: "chat.completion",
      created: 0,
      model: "o-like",
      choices: [{ index: 0, message, finish_reason: "stop" }],
    });
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (
    request,
  ) => {
    const body = await request.json();
    bodies.push(body);
    if ("max_tokens" in body) {
      return Response.json({
        error: {
          message: "Unsupported parameter: 'max_tokens' is not supported with this model. " +
            "Use 'max_completion_tokens' instead.",
          type: "invalid_request_error",
          param: "max_tokens",
          code: "unsupported_parameter",
        },
      }, { status: 400 });
    }
    return completion(
      bodies.length === 2
        ? {
          role: "assistant",
          content: null,
          tool_calls: [{
            id: "call_1",
            type: "function",
            function: { name: "read_file", arguments: '{"path":"a.txt"}' },
          }],
        }
        : { role: "assistant", content: "alpha" },
    );
  });
  const url = `http://127.0.0.1:${server.addr.port}/v1`;
  const args = ["--base-url", url, "--model", "m", "--access", "auto", "--no-stream"];
  const result = await runHelInProcess([...args, "--max-output-tokens", "1234", "read"], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "alpha\n");
  assert.doesNotMatch(result.stderr, /HTTP 400|retry/);
  // One refused request, then every request carries the limit in the field the server wants.
  assert.equal(bodies.length, 3);
  assert.equal(bodies[0].max_tokens, 1234);
  for (const body of bodies.slice(1)) {
    assert.equal(body.max_completion_tokens, 1234);
    assert.ok(!("max_tokens" in body));
  }
});

Deno.test("tool calls that come without ids get ids of their own, so each result answers its call", async () => {
  await using project = await tempProject({ "a.txt": "alpha\n", "b.txt": "beta\n" });
  // deno-lint-ignore no-explicit-any
  const bodies: any[] = [];
  const read = (path: string) => ({
    type: "function",
    function: { name: "read_file", arguments: JSON.stringify({ path }) },
  });
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (
    request,
  ) => {
    bodies.push(await request.json());
    const message = bodies.length === 1
      ? {
        role: "assistant",
        content: null,
        tool_calls: [read("a.txt"), { ...read("b.txt"), id: "" }],
      }
      : { role: "assistant", content: "alpha and beta" };
    return Response.json({
      id: "c",
      object: "chat.completion",
      created: 0,
      model: "m",
      choices: [{ index: 0, message, finish_reason: "stop" }],
    });
  });
  const url = `http://127.0.0.1:${server.addr.port}/v1`;
  const result = await runHelInProcess(
    ["--base-url", url, "--model", "m", "--access", "auto", "--no-stream", "read"],
    { cwd: project.project },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /warning: (?!hel runs as root)/); // root gets that one
  const [assistant, first, second] = bodies[1].messages.slice(2);
  const ids = assistant.tool_calls.map((call: { id: string }) => call.id);
  assert.equal(new Set(ids).size, 2);
  assert.ok(ids.every((id: unknown) => typeof id === "string" && id !== ""));
  assert.deepEqual([first.tool_call_id, first.content], [ids[0], "alpha\n"]);
  assert.deepEqual([second.tool_call_id, second.content], [ids[1], "beta\n"]);
});
