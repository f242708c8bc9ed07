/**
 * Bad input from the model, through the real CLI (reliability catalogue §7 (e)): arguments
 * that are not JSON, arguments that do not fit the tool, unknown tools, and control characters
 * in what the person is asked to approve. Each becomes an error result the model can act on;
 * nothing is asked and nothing runs for a call that cannot run.
 */
import assert from "node:assert/strict";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { scriptedModel, type TempProject, tempProject, toolMessage } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { savedSession } from "../_journal.ts";
import { helOnTerminal } from "../_terminal.ts";
import { TERMINAL_RESET } from "../../kit/output.ts";

const SANDBOX = hasBwrap() ? [] : ["--sandbox", "off"];

/** Runs "go" in confirm mode with the permission questions answered from `answers`. */
async function confirmWith(project: TempProject, url: string, answers: boolean[]) {
  await Deno.writeTextFile(`${project.root}/answers.json`, JSON.stringify(answers));
  const args = ["--base-url", url, "--access", "confirm"];
  args.push("--approval-input", `${project.root}/answers.json`, ...SANDBOX, "go");
  return await runHelInProcess(args, { cwd: project.project });
}

Deno.test("arguments that are not a JSON object are error results; nothing is asked or written", async () => {
  await using project = await tempProject({ "a.txt": "alpha\n" });
  const raw: [string, string][] = [
    ["call_cut", '{"path": "w.txt", "content": "x'],
    ["call_prose", '{"path": "w.txt", "content": "x"} I wrote the file.'],
    ["call_array", '["w.txt", "x"]'],
    ["call_string", '"w.txt"'],
    ["call_nan", '{"path": "w.txt", "content": NaN}'],
    ["call_brace", "{"],
  ];
  await using model = scriptedModel([
    { toolCalls: raw.map(([id, args]) => ({ id, name: "write_file", arguments: args })) },
    { text: "done" },
  ]);
  // No answers: a question asked for any of the bad calls would be a denial, not a JSON error.
  const run = await confirmWith(project, model.url, []);
  assert.equal(run.code, 0, run.stderr);
  for (const [id] of raw.slice(0, 2).concat(raw.slice(4))) {
    assert.match(
      toolMessage(model, id),
      /^error: write_file: arguments are not valid JSON \(.+\); send the arguments again as one JSON object$/,
      id,
    );
  }
  for (const id of ["call_array", "call_string"]) {
    assert.equal(
      toolMessage(model, id),
      "error: write_file: arguments must be a JSON object; send them again as one JSON object",
    );
  }
  assert.doesNotMatch(run.stderr, /permission denied|Allow this call/);
  await assert.rejects(Deno.stat(`${project.project}/w.txt`));
  // The session keeps the raw arguments as the model sent them.
  const sessions = `${project.project}/.hel/sessions`;
  const [session] = [...Deno.readDirSync(sessions)];
  const calls = JSON.stringify(await savedSession(project.project, session!.name));
  for (const [, args] of raw) assert.ok(calls.includes(JSON.stringify(args).slice(1, -1)), args);
});

Deno.test("the same invalid call three times in a row stops the turn with a message to the user", async () => {
  await using project = await tempProject();
  const bad = { name: "read_file", arguments: '{"path": "a.txt"' };
  await using model = scriptedModel([
    { toolCalls: [bad] },
    { toolCalls: [bad] },
    { toolCalls: [bad] },
    { text: "never asked" },
  ]);
  const run = await runHelInProcess(["--base-url", model.url, ...SANDBOX, "go"], {
    cwd: project.project,
  });
  assert.equal(run.code, 1, run.stderr);
  assert.match(
    run.stderr,
    /stopped: the model made the same failing call 3 times in a row \(read_file\); rephrase the task/,
  );
  assert.equal(model.remaining(), 1);
});

Deno.test("unknown tools and other letter cases are refused by name, never routed to a near one", async () => {
  await using project = await tempProject({ "a.txt": "alpha\n" });
  await using model = scriptedModel([
    {
      toolCalls: [
        { id: "call_hallucinated", name: "run_shell", arguments: { command: "touch ran1" } },
        { id: "call_case", name: "Bash", arguments: { command: "touch ran2" } },
        { id: "call_space", name: "bash ", arguments: { command: "touch ran3" } },
      ],
    },
    { text: "done" },
  ]);
  const run = await runHelInProcess(
    ["--base-url", model.url, "--access", "auto", ...SANDBOX, "go"],
    { cwd: project.project },
  );
  assert.equal(run.code, 0, run.stderr);
  const refused = "call one of the tools offered to you";
  assert.equal(
    toolMessage(model, "call_hallucinated"),
    `error: unknown tool: run_shell; ${refused}`,
  );
  assert.equal(
    toolMessage(model, "call_case"),
    `error: unknown tool: Bash; ${refused} (tool names are exact: did you mean bash?)`,
  );
  assert.equal(
    toolMessage(model, "call_space"),
    `error: unknown tool: bash ; ${refused} (tool names are exact: did you mean bash?)`,
  );
  for (const marker of ["ran1", "ran2", "ran3"]) {
    await assert.rejects(Deno.stat(`${project.project}/${marker}`), marker);
  }
});

Deno.test("arguments that do not fit the schema are refused before the approval question", async () => {
  await using project = await tempProject({ "a.txt": "alpha\n" });
  await using model = scriptedModel([
    {
      toolCalls: [
        { id: "call_missing", name: "write_file", arguments: { path: "w.txt" } },
        { id: "call_types", name: "write_file", arguments: { path: 7, content: ["x"] } },
        { id: "call_extra", name: "bash", arguments: { command: "touch ran", sudo: true } },
        { id: "call_good", name: "write_file", arguments: { path: "w.txt", content: "ok" } },
      ],
    },
    { text: "done" },
  ]);
  // One yes: it must reach the one call that can run, not be used up by a broken one.
  const run = await confirmWith(project, model.url, [true]);
  assert.equal(run.code, 0, run.stderr);
  const fix = ". Send the call again with all of these fixed";
  assert.equal(
    toolMessage(model, "call_missing"),
    "error: write_file: the arguments do not fit the tool's parameters: content is required " +
      `but missing${fix}`,
  );
  assert.equal(
    toolMessage(model, "call_types"),
    "error: write_file: the arguments do not fit the tool's parameters: path must be a string, " +
      `not integer; content must be a string, not array${fix}`,
  );
  assert.equal(
    toolMessage(model, "call_extra"),
    "error: bash: the arguments do not fit the tool's parameters: unknown argument sudo (this " +
      `tool takes command)${fix}`,
  );
  assert.equal(toolMessage(model, "call_good"), "wrote 2 bytes to w.txt");
  assert.equal(await project.read("w.txt"), "ok");
  await assert.rejects(Deno.stat(`${project.project}/ran`));
});

Deno.test("oversized and deeply nested arguments and calls over the per-response cap are error results", async () => {
  await using project = await tempProject({ "a.txt": "alpha\n" });
  const deep = `{"path": ${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
  const huge = JSON.stringify({ path: "big.txt", content: "x".repeat(4_000_000) });
  const reads = Array.from({ length: 64 }, (_, i) => ({
    id: `call_read_${i}`,
    name: "read_file",
    arguments: { path: "a.txt" },
  }));
  await using model = scriptedModel([
    {
      toolCalls: [
        { id: "call_deep", name: "read_file", arguments: deep },
        { id: "call_huge", name: "write_file", arguments: huge },
        ...reads,
      ],
    },
    { text: "done" },
  ]);
  const run = await runHelInProcess(
    [
      "--base-url",
      model.url,
      "--access",
      "auto",
      "--no-stream",
      "--no-compaction",
      ...SANDBOX,
      "go",
    ],
    { cwd: project.project },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    toolMessage(model, "call_deep"),
    /^error: read_file: .*path must be a string, not array/,
  );
  assert.equal(
    toolMessage(model, "call_huge"),
    "error: write_file: arguments are 4000031 characters, over the limit of 4000000; split the " +
      "work into smaller calls",
  );
  await assert.rejects(Deno.stat(`${project.project}/big.txt`));
  for (const i of [0, 61]) assert.equal(toolMessage(model, `call_read_${i}`), "alpha\n");
  for (const i of [62, 63]) {
    assert.equal(
      toolMessage(model, `call_read_${i}`),
      "error: not run: one response may ask for at most 64 tool calls; ask for the rest in your " +
        "next response",
    );
  }
});

Deno.test("the approval question shows terminal controls and invisible characters escaped", async () => {
  await using project = await tempProject();
  // Each part would make the question read differently from what runs: a carriage return and
  // cursor moves over the line, a bidi override, zero-width and tag characters that show
  // nothing, an OSC 8 hyperlink, NEL and a line separator.
  const command = "echo safe\r\u001b[2K\u001b[1Aecho \u202etxt.exe\u202c \u200bzw \u2060wj " +
    "\u{E0041}\u{E0042}tag \u001b]8;;http://evil\u0007link\u001b]8;;\u0007 \u0085nel \u2028ls";
  await using model = scriptedModel([
    { toolCalls: [{ id: "call_tricky", name: "bash", arguments: { command } }] },
    { text: "done" },
  ]);
  const hel = helOnTerminal(project, [
    "--base-url",
    model.url,
    "--access",
    "confirm",
    ...SANDBOX,
    "go",
  ]);
  await hel.type("n\n");
  const { code, output } = await hel.finish();
  assert.equal(code, 0, output);
  const shown = String.raw`echo safe\r\u001b[2K\u001b[1Aecho \u202etxt.exe\u202c \u200bzw ` +
    String.raw`\u2060wj \u{e0041}\u{e0042}tag \u001b]8;;http://evil\u0007link\u001b]8;;` +
    String.raw`\u0007 \u0085nel \u2028ls`;
  assert.ok(
    output.includes(`permission: bash {"command":"${shown}"}\r\nAllow this call once? [y/N]`),
    JSON.stringify(output),
  );
  // The only controls are hel's own: the reset before its question.
  const outside = output.replaceAll(TERMINAL_RESET, "");
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(outside, /[\u001b\u0007\u0085\u200b\u2028\u202e\u2060]|\u{E0041}/u);
  assert.match(toolMessage(model, "call_tricky"), /^error: permission denied: bash/);
});
