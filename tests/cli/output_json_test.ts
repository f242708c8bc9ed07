/**
 * `--output-format json`: the result object alone on stdout, checked against
 * `cli/output/stream_json.schema.json`, for a run that answers, one that fails and one that
 * reaches its bound; and the usage errors of the flag.
 */
import assert from "node:assert/strict";
import type { ScriptTurn } from "../../fixtures/script.ts";
import { tempProject } from "../_helpers.ts";
import { runHelInProcess, testRun } from "../_run.ts";
import { helOnTerminal } from "../_terminal.ts";
import { schemaErrors, validResult } from "../_output_schema.ts";

const JSON_OUT = ["--output-format", "json", "--no-env"];

Deno.test("--output-format json prints the result object alone, the answer in it", async () => {
  await using run = await testRun({
    files: { "notes.txt": "the code is 7\n" },
    turns: [
      { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] },
      { text: "The code is 7." },
      { text: "Still 7." },
    ],
    flags: [...JSON_OUT, "what is the code?"],
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.split("\n").length, 2, "one line and its newline");
  const result = JSON.parse(run.stdout);
  assert.ok(validResult(result), schemaErrors(validResult));
  assert.equal(result.type, "result");
  assert.equal(result.result, "The code is 7.");
  assert.equal(result.num_turns, 2);
  assert.equal(result.tool_calls, 1);
  assert.equal(result.model_calls, 2);
  assert.deepEqual(result.usage.output_tokens, 20);
  assert.ok(
    (await Deno.stat(`${run.project.project}/.hel/sessions/${result.session_id}`)).isDirectory,
  );
  assert.doesNotMatch(run.stderr, /^\[tool\]|^\[usage:|^session:/m);

  // A script continues the session with the id the JSON gave.
  const next = await run.hel([...JSON_OUT, "--resume", result.session_id, "and now?"]);
  assert.equal(next.code, 0, next.stderr);
  const resumed = JSON.parse(next.stdout);
  assert.deepEqual([resumed.session_id, resumed.result], [result.session_id, "Still 7."]);
  assert.ok(run.model.requests[2]!.messages.some((m) => m.content === "The code is 7."));
});

Deno.test("--output-format json: a failed run is a result with is_error, the error and exit 1", async () => {
  await using failed = await testRun({
    turns: [{ fail: 500 }],
    flags: [...JSON_OUT, "hi"],
  });
  assert.equal(failed.code, 1);
  const result = JSON.parse(failed.stdout);
  assert.ok(validResult(result), schemaErrors(validResult));
  assert.deepEqual(
    [result.subtype, result.is_error, result.result, result.error, result.num_turns],
    ["error_during_execution", true, null, "scripted failure 500", 0],
  );
  // The model never answered, so no session was saved and the result names none.
  assert.equal(result.session_id, null);
  assert.deepEqual(result.usage, {
    input_tokens: null,
    output_tokens: null,
    cache_read_input_tokens: null,
  });
  // The person still reads what went wrong on stderr.
  assert.match(failed.stderr, /^hel: scripted failure 500$/m);
});

Deno.test("--output-format json: reaching --max-turns is error_max_turns with the fix", async () => {
  const call: ScriptTurn = { toolCalls: [{ name: "glob", arguments: { pattern: "*" } }] };
  await using run = await testRun({
    turns: [call],
    flags: [...JSON_OUT, "--max-turns", "1", "loop"],
  });
  assert.equal(run.code, 1);
  const result = JSON.parse(run.stdout);
  assert.ok(validResult(result), schemaErrors(validResult));
  assert.equal(result.subtype, "error_max_turns");
  assert.match(result.error, /stopped after 1 model call .*raise --max-turns/);
  assert.equal(result.tool_calls, 1);
});

Deno.test("--output-format json on a terminal without an instruction (the chat) is a usage error naming the fix", async () => {
  await using project = await tempProject();
  const hel = helOnTerminal(project, ["--output-format", "json"]);
  const { code, output } = await hel.finish();
  assert.equal(code, 2, output);
  assert.equal(
    output.replaceAll("\r\n", "\n"),
    "hel: --output-format json applies to a one-shot run: give the instruction as words, " +
      "with --instruction, or on stdin (the chat writes text only)\n",
  );
});

Deno.test("--output-format with --raw-output, or a format hel does not know, is a usage error", async () => {
  await using project = await tempProject();
  const raw = await runHelInProcess(["--output-format", "json", "--raw-output", "hi"], {
    cwd: project.project,
  });
  assert.equal(raw.code, 2);
  assert.match(
    raw.stderr,
    /^hel: --raw-output applies to --output-format text: .*leave out --raw-output\n$/,
  );
  const unknown = await runHelInProcess(["--output-format", "yaml", "hi"], {
    cwd: project.project,
  });
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    /argument 'yaml' is invalid\. Allowed choices are text, json, stream-json/,
  );
});
