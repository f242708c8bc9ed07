/**
 * Access levels end to end with the built-in tools: read-only, confirm (scripted answers, a
 * terminal, no terminal) and auto, through the real CLI.
 */
import assert from "node:assert/strict";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { helOnTerminal } from "../_terminal.ts";

const SANDBOX = hasBwrap() ? [] : ["--sandbox", "off"];
const advice = "Do not retry the same call; continue with other tools or explain what you need.";

// deno-lint-ignore no-explicit-any
function toolReplies(messages: any[]): string[] {
  return messages.filter((message) => message.role === "tool").map((message) => message.content);
}

const CALLS = [
  { name: "read_file", arguments: { path: "a.txt" } },
  { name: "write_file", arguments: { path: "w.txt", content: "written" } },
  { name: "bash", arguments: { command: "echo ran > b.txt; echo ran" } },
];

async function runWith(access: string, extra: string[] = [], answers?: boolean[]) {
  await using project = await tempProject({ "a.txt": "alpha\n" });
  await using model = scriptedModel([{ toolCalls: CALLS }, { text: "done" }]);
  const args = ["--base-url", model.url, "--access", access, ...SANDBOX, ...extra];
  if (answers) {
    await Deno.writeTextFile(`${project.root}/answers.json`, JSON.stringify(answers));
    args.push("--approval-input", `${project.root}/answers.json`);
  }
  const result = await runHelInProcess([...args, "go"], { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(model.remaining(), 0);
  const replies = toolReplies(model.requests.at(-1)!.messages);
  const exists = async (path: string) =>
    await Deno.stat(`${project.project}/${path}`).then(() => true, () => false);
  const state = { w: await exists("w.txt"), b: await exists("b.txt") };
  return { replies, state, stderr: result.stderr };
}

Deno.test("read-only allows reads and denies write and execute tools", async () => {
  const { replies, state } = await runWith("read-only");
  assert.deepEqual(replies, [
    "alpha\n",
    "error: permission denied: write_file (access=read-only, approval=none): the access level " +
    `read-only does not allow this kind of tool. ${advice}`,
    "error: permission denied: bash (access=read-only, approval=none): the access level " +
    `read-only does not allow this kind of tool. ${advice}`,
  ]);
  assert.deepEqual(state, { w: false, b: false });
});

Deno.test("confirm with --approval-input [true, false] approves, then denies, then has no answer", async () => {
  // read_file asks nothing; write_file takes `true`; bash takes `false`.
  const first = await runWith("confirm", [], [true, false]);
  assert.deepEqual(first.replies, [
    "alpha\n",
    "wrote 7 bytes to w.txt",
    "error: permission denied: bash (access=confirm, approval=denied): the user declined " +
    `this call. ${advice}`,
  ]);
  assert.deepEqual(first.state, { w: true, b: false });
  // One answer only: the second question finds none, which counts as a denial.
  const second = await runWith("confirm", [], [true]);
  assert.equal(
    second.replies[2],
    "error: permission denied: bash (access=confirm, approval=unavailable): nobody was " +
      `available to approve this call. ${advice}`,
  );
  assert.deepEqual(second.state, { w: true, b: false });
});

Deno.test("confirm without a terminal denies every write and execute call", async () => {
  const { replies, state } = await runWith("confirm");
  assert.equal(replies[0], "alpha\n");
  assert.match(
    replies[1]!,
    /^error: permission denied: write_file \(access=confirm, approval=unavailable\)/,
  );
  assert.match(
    replies[2]!,
    /^error: permission denied: bash \(access=confirm, approval=unavailable\)/,
  );
  assert.deepEqual(state, { w: false, b: false });
});

Deno.test("auto allows every tool", async () => {
  const { replies, state } = await runWith("auto");
  assert.deepEqual(replies, ["alpha\n", "wrote 7 bytes to w.txt", "exit=0\nran\n"]);
  assert.deepEqual(state, { w: true, b: true });
});

Deno.test("confirm on a terminal shows the tool and its arguments and takes y or N", async () => {
  await using project = await tempProject({ "a.txt": "alpha\n" });
  await using model = scriptedModel([{ toolCalls: CALLS }, { text: "done" }]);
  const hel = helOnTerminal(project, [
    "--base-url",
    model.url,
    "--access",
    "confirm",
    ...SANDBOX,
    "go",
  ]);
  // Typed ahead: the terminal keeps the lines until hel asks.
  await hel.type("y\nn\n");
  const { code, output: text } = await hel.finish();
  assert.equal(code, 0, text);
  assert.match(
    text,
    /permission: write_file \{"path":"w\.txt","content":"written"\}\r?\nAllow this call once\? \[y\/N\]/,
  );
  assert.match(
    text,
    /permission: bash \{"command":"echo ran > b\.txt; echo ran"\}\r?\nAllow this call once\? \[y\/N\]/,
  );
  assert.equal(model.remaining(), 0);
  const replies = toolReplies(model.requests.at(-1)!.messages);
  assert.equal(replies[1], "wrote 7 bytes to w.txt");
  assert.match(replies[2]!, /^error: permission denied: bash \(access=confirm, approval=denied\)/);
  assert.equal(await project.read("w.txt"), "written");
  await assert.rejects(Deno.stat(`${project.project}/b.txt`));
});
