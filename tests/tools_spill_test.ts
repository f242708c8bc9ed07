/**
 * Large results end to end: a bash result over the spill threshold is saved in the session's
 * spill folder, the model gets head, notice and tail, and read_file reads the saved file in
 * the same session but not from another one.
 */
import assert from "node:assert/strict";
import type { RecordedRequest } from "../fixtures/scripted_model.ts";
import { hasBwrap } from "../plugins/tools/testing.ts";
import { runHel, scriptedModel, tempProject } from "./_helpers.ts";

const SANDBOX = hasBwrap() ? [] : ["--sandbox", "off"];
// How to read on comes from the tools plugin, which offers read_file.
const NOTICE =
  /\[Result too large: (\d+) characters omitted here\. The full result is saved at (\S+\.txt)\. Read it with read_file using start_line and max_lines, or continue with its cursor\.\]/;

// deno-lint-ignore no-explicit-any
function toolReplies(messages: any[]): string[] {
  return messages.filter((message) => message.role === "tool").map((message) => message.content);
}

Deno.test("a spilled result is readable with read_file in its session and not from another", async () => {
  await using project = await tempProject();
  // "exit=0" then the numbers 1..20000, one per line: 108,900 characters.
  const full = "exit=0\n" + Array.from({ length: 20_000 }, (_, i) => `${i + 1}\n`).join("");
  let spillPath = "";
  const readSpill = (request: RecordedRequest) => {
    const notice = toolReplies(request.messages).at(-1)!.match(NOTICE);
    assert.ok(notice, "no spill notice in the bash result");
    spillPath = notice[2]!;
    return {
      toolCalls: [
        { name: "read_file", arguments: { path: spillPath, start_line: 20_000, max_lines: 2 } },
        { name: "read_file", arguments: { path: spillPath } },
      ],
    };
  };
  await using model = scriptedModel([
    { toolCalls: [{ name: "bash", arguments: { command: "seq 1 20000" } }] },
    readSpill,
    { text: "read it" },
  ]);
  const first = await runHel(
    ["--base-url", model.url, "--access", "auto", ...SANDBOX, "count"],
    { cwd: project.project },
  );
  assert.equal(first.code, 0, first.stderr);
  assert.equal(model.remaining(), 0);
  const session = first.stderr.match(/session: (\S+)/)![1]!;

  // What the model saw of the bash result: the head, the notice, the tail.
  const [shown, range, whole] = toolReplies(model.requests.at(-1)!.messages);
  assert.ok(shown!.startsWith(full.slice(0, 4_096) + "\n\n[Result too large: "));
  assert.ok(shown!.endsWith("]\n\n" + full.slice(-1_024)));
  assert.equal(shown!.match(NOTICE)![1], String(full.length - 4_096 - 1_024));
  assert.match(
    spillPath,
    new RegExp(`^${project.project}/\\.hel/sessions/${session}/spill/[0-9a-f-]{36}\\.txt$`),
  );
  assert.equal(await Deno.readTextFile(spillPath), full);
  assert.equal((await Deno.stat(spillPath)).mode! & 0o777, 0o600);

  // read_file in the same session: a range, and the start with a cursor to go on.
  assert.equal(range, "19999\n20000\n");
  assert.ok(whole!.startsWith("exit=0\n1\n2\n3\n"));
  assert.match(
    whole!,
    /\n\n\[Read truncated at 10,000 bytes\. Continue with read_file\(\{"cursor":"[0-9a-f-]{36}"\}\)\.\]\n$/,
  );

  // Another session of the same project cannot read it.
  await using other = scriptedModel([
    { toolCalls: [{ name: "read_file", arguments: { path: spillPath } }] },
    { text: "refused" },
  ]);
  const second = await runHel(
    ["--base-url", other.url, "--access", "auto", ...SANDBOX, "peek"],
    { cwd: project.project },
  );
  assert.equal(second.code, 0, second.stderr);
  assert.equal(other.remaining(), 0);
  const [refused] = toolReplies(other.requests.at(-1)!.messages);
  assert.equal(
    refused,
    `error: ${spillPath}: refused because it is inside hel's protected .hel folder, which ` +
      "holds sessions, hooks and settings; file tools cannot read or change it (only the " +
      "current session's spill files are readable)",
  );
});

Deno.test("without read_file the spill notice names the saved file and no tool to read it", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([
    { toolCalls: [{ name: "bash", arguments: { command: "seq 1 20000" } }] },
    { text: "done" },
  ]);
  const result = await runHel(
    ["--base-url", model.url, "--access", "auto", "--tools", "bash", ...SANDBOX, "count"],
    { cwd: project.project },
  );
  assert.equal(result.code, 0, result.stderr);
  const [shown] = toolReplies(model.requests.at(-1)!.messages);
  assert.match(
    shown!,
    /\n\n\[Result too large: \d+ characters omitted here\. The full result is saved at \S+\.txt\.\]\n\n/,
  );
  assert.doesNotMatch(shown!, /read_file/);
});
