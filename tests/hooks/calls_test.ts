/**
 * Hook semantics end to end (original hel §5.3-5.4): what a trusted hook receives, the order
 * PreToolUse → permission → tool → PostToolUse, matchers, blocking, feedback, JSON decisions,
 * hook errors, timeouts and capture limits. Every config here is trusted first.
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../../kit/mod.ts";
import type { ScriptTurn } from "../../fixtures/scripted_model.ts";
import { scriptedModel, spawnHel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import {
  baseArgs,
  command,
  EDIT,
  exists,
  group,
  helRun,
  hooksJson,
  noSleepLeft,
  toolMessage,
  trustHooks,
  uniqueSleep,
} from "../_hooks.ts";

/** A project with a.txt and a trusted hooks.json. */
async function hookedProject(pre: unknown[], post: unknown[] = []) {
  const project = await tempProject({ "a.txt": "old\n", ".hel/hooks.json": hooksJson(pre, post) });
  await trustHooks(project);
  return project;
}

const editThenAnswer = (): ScriptTurn[] => [{ toolCalls: [EDIT] }, { text: "done" }];
const WRITE = { id: "call_write", name: "write_file", arguments: { path: "b.txt", content: "b" } };
const editWriteThenAnswer = (): ScriptTurn[] => [
  { toolCalls: [EDIT] },
  { toolCalls: [WRITE] },
  { text: "done" },
];

Deno.test("hooks receive the call as JSON on stdin, run in the project, without API keys", async () => {
  await using project = await hookedProject(
    [group(undefined, command("cat > pre.json; env > pre.env; pwd > pre.pwd"))],
    [group(undefined, command("cat > post.json"))],
  );
  await using model = scriptedModel(editThenAnswer());
  const run = await runHelInProcess([...baseArgs(model), "-i", "go"], {
    cwd: project.project,
    env: { DEEPSEEK_API_KEY: "secret-deepseek", HEL_API_KEY: "secret-hel", VISIBLE: "yes" },
  });
  assert.equal(run.code, 0, run.stderr);
  const session = run.stderr.match(/session: (\S+)/)![1];
  const pre = JSON.parse(await project.read("pre.json"));
  assert.deepEqual(pre, {
    hook_event_name: "PreToolUse",
    session_id: session,
    cwd: project.project,
    tool_use_id: "call_edit",
    tool_name: "search_replace",
    tool_input: EDIT.arguments,
  });
  const post = JSON.parse(await project.read("post.json"));
  assert.deepEqual(post, {
    ...pre,
    hook_event_name: "PostToolUse",
    tool_response: "replaced 1 occurrence in a.txt",
  });
  const env = await project.read("pre.env");
  assert.match(env, /^VISIBLE=yes$/m);
  assert.doesNotMatch(env, /secret-/);
  assert.equal((await project.read("pre.pwd")).trim(), project.project);
  assert.equal(model.remaining(), 0);
});

Deno.test("PreToolUse runs, then the tool, then PostToolUse; each sees the file at its time", async () => {
  await using project = await hookedProject(
    [group("^search_replace$", command('echo "pre $(cat a.txt)" >> order.log'))],
    [group("^search_replace$", command('echo "post $(cat a.txt)" >> order.log'))],
  );
  await using model = scriptedModel(editThenAnswer());
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await project.read("order.log"), "pre old\npost new\n");
});

Deno.test("PreToolUse runs before the permission decision; a denied or failed call gets no PostToolUse", async () => {
  await using project = await hookedProject(
    [group(undefined, command("echo pre >> order.log"))],
    [group(undefined, command("echo post >> order.log"))],
  );
  await project.write("deny.json", "[false]");
  await using model = scriptedModel([
    { toolCalls: [EDIT] },
    {
      toolCalls: [{
        id: "call_miss",
        name: "read_file",
        arguments: { path: "missing.txt" },
      }],
    },
    { toolCalls: [{ id: "call_unknown", name: "no_such_tool", arguments: {} }] },
    { text: "done" },
  ]);
  const run = await runHelInProcess(
    ["--base-url", model.url, "--model", "m", "--no-env", "--access", "confirm"].concat(
      ["--approval-input", "deny.json", "-i", "go"],
    ),
    { cwd: project.project },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(toolMessage(model, "call_edit"), /^error: permission denied: search_replace/);
  assert.match(toolMessage(model, "call_miss"), /^error: /);
  assert.match(toolMessage(model, "call_unknown"), /^error: unknown tool: no_such_tool/);
  // Denied edit: Pre only. Failed read: Pre only. Unknown tool: nothing.
  assert.equal(await project.read("order.log"), "pre\npre\n");
  assert.equal(await project.read("a.txt"), "old\n");
  assert.equal(model.remaining(), 0);
});

Deno.test("matchers select tools; a block stops the remaining PreToolUse handlers and the tool", async () => {
  await using project = await hookedProject([
    group("^read_file$", command("echo read-hook >> order.log")),
    group("search", command("echo first >> order.log")),
    group("^search_replace$", command("echo second >> order.log; echo stop >&2; exit 2")),
    group("*", command("echo third >> order.log")),
  ], [group(undefined, command("echo post >> order.log"))]);
  await using model = scriptedModel(editThenAnswer());
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await project.read("order.log"), "first\nsecond\n");
  assert.equal(
    toolMessage(model, "call_edit"),
    "error: PreToolUse hook blocked search_replace: stop",
  );
  assert.equal(await project.read("a.txt"), "old\n");
});

Deno.test("a JSON deny blocks with its reason; allow grants nothing beyond the access level", async () => {
  const deny = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "use write_file for new files",
    },
  });
  const allow = JSON.stringify({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" },
  });
  await using project = await hookedProject([
    group("^search_replace$", command(`printf '%s' '${deny}'`)),
    group("^write_file$", command(`printf '%s' '${allow}'`)),
  ]);
  await using model = scriptedModel(editWriteThenAnswer());
  const run = await runHelInProcess(
    ["--base-url", model.url, "--model", "m", "--no-env", "--access", "read-only", "-i", "go"],
    { cwd: project.project },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    toolMessage(model, "call_edit"),
    "error: PreToolUse hook blocked search_replace: use write_file for new files",
  );
  assert.match(toolMessage(model, "call_write"), /^error: permission denied: write_file/);
  assert.equal(await exists(`${project.project}/b.txt`), false);
});

Deno.test("PostToolUse exit 2 and JSON block append feedback to the successful result", async () => {
  await using project = await hookedProject([], [
    group("^search_replace$", command("echo 'run the tests next' >&2; exit 2")),
    group("^read_file$", command("echo never >&2; exit 2")),
    group(
      undefined,
      command(`printf '%s' '{"decision": "block", "reason": "lint: line too long"}'`),
    ),
    group(undefined, command("exit 0")),
  ]);
  await using model = scriptedModel(editThenAnswer());
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    toolMessage(model, "call_edit"),
    "replaced 1 occurrence in a.txt\n\n[PostToolUse hook 1]\nrun the tests next\n\n" +
      "[PostToolUse hook 3]\nlint: line too long",
  );
  assert.equal(await project.read("a.txt"), "new\n");
});

Deno.test("hook errors are shown and the call goes on, unless the hook says on_error block", async () => {
  await using project = await hookedProject([
    group("^search_replace$", command("echo crashed >&2; exit 1")),
    group("^search_replace$", command("echo not json")),
    group("^write_file$", command("exit 7", { on_error: "block" })),
  ], [group("^search_replace$", command("kill -SEGV $$"))]);
  await using model = scriptedModel(editWriteThenAnswer());
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /hel: warning: PreToolUse hook 1 error for search_replace: exited with code 1; stderr: crashed \(the call goes on\)/,
  );
  assert.match(run.stderr, /PreToolUse hook 2 error for search_replace: exited 0 but printed/);
  assert.match(
    run.stderr,
    // Inside the sandbox bubblewrap reports a killed hook as 128 + the signal's number.
    /PostToolUse hook 1 error for search_replace: exited with code 139 \(the result is kept\)/,
  );
  assert.equal(toolMessage(model, "call_edit"), "replaced 1 occurrence in a.txt");
  assert.equal(await project.read("a.txt"), "new\n");
  assert.match(
    toolMessage(model, "call_write"),
    /^error: PreToolUse hook blocked write_file: hook 3 failed and is set to block the call when it fails \(exited with code 7\)$/,
  );
  assert.equal(await exists(`${project.project}/b.txt`), false);
});

Deno.test("a hook that outlives its timeout is killed with its children and reported", async () => {
  const sleep = uniqueSleep();
  await using project = await hookedProject([
    group("^search_replace$", command(`sleep ${sleep} & sleep ${sleep}`, { timeout: 1 })),
  ]);
  await using model = scriptedModel(editThenAnswer());
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /PreToolUse hook 1 error for search_replace: timed out after 1 second \(the call goes on\)/,
  );
  assert.equal(await project.read("a.txt"), "new\n", "the call went on");
  assert.ok(await noSleepLeft(sleep), "the hook's background child was killed");
});

Deno.test("output past the 1 MiB capture limit is a hook error", async () => {
  await using project = await hookedProject([
    group("^search_replace$", command("head -c 2000000 /dev/zero | tr '\\0' x")),
  ]);
  await using model = scriptedModel(editThenAnswer());
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /PreToolUse hook 1 error.*stdout exceeded the 1 MiB capture limit/);
  assert.equal(await project.read("a.txt"), "new\n");
});

Deno.test("feedback over 2,500 estimated tokens is spilled to a file the model can read", async () => {
  // 20,006 characters on stderr with exit 2: about 5,000 estimated tokens.
  await using project = await hookedProject([], [
    group(
      "^search_replace$",
      command("{ printf START; head -c 20000 /dev/zero | tr '\\0' y; printf END; } >&2; exit 2"),
    ),
  ]);
  await using model = scriptedModel(editThenAnswer());
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  const text = toolMessage(model, "call_edit");
  assert.ok(text.startsWith("replaced 1 occurrence in a.txt\n\n[PostToolUse hook 1]\nSTART"));
  assert.ok(text.endsWith("END"));
  assert.ok(text.length < 12_000, String(text.length));
  const saved = text.match(/The full text is saved at (\S+);/)![1]!;
  assert.ok(saved.startsWith(`${project.project}/.hel/sessions/`), saved);
  const full = await Deno.readTextFile(saved);
  assert.equal(full, `[PostToolUse hook 1]\nSTART${"y".repeat(20_000)}END`);
});

Deno.test("--record keeps the hooks trace: config status and every handler run", async () => {
  await using project = await hookedProject([
    group("^search_replace$", command("echo fine >&2"), command("echo stop >&2; exit 2")),
  ]);
  await using model = scriptedModel(editThenAnswer());
  const record = `${project.root}/record/record.json`;
  const run = await helRun(project, model, ["--record", record], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  const lines = (await Deno.readTextFile(`${project.root}/record/raw/hooks.jsonl`))
    .trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(lines.length, 3, JSON.stringify(lines));
  assert.deepEqual(lines[0], {
    status: "trusted",
    path: `${project.project}/.hel/hooks.json`,
    project: project.project,
    sha256: await sha256Hex(await Deno.readFile(`${project.project}/.hel/hooks.json`)),
    handlers: 2,
  });
  const runs = lines.slice(1).map(({ duration_ms, ...rest }) => {
    assert.equal(typeof duration_ms, "number");
    return rest;
  });
  const base = { event: "PreToolUse", tool_use_id: "call_edit", tool_name: "search_replace" };
  assert.deepEqual(runs, [
    { ...base, handler: 0, command: "echo fine >&2", status: "continued", exit_code: 0 },
    {
      ...base,
      handler: 1,
      command: "echo stop >&2; exit 2",
      status: "blocked",
      exit_code: 2,
      message: "stop",
    },
  ]);
  const permissions = (await Deno.readTextFile(`${project.root}/record/raw/permissions.jsonl`))
    .trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(permissions.length, 1);
  assert.equal(permissions[0].decision, "deny");
  assert.equal(permissions[0].executed, false);
  assert.equal(permissions[0].hookBlocked, true);
});

for (
  const [signal, code, title] of [
    ["SIGINT", 130, "Ctrl-C during a PreToolUse hook stops the hook and the call does not run"],
    [
      "SIGTERM",
      143,
      "SIGTERM during a PreToolUse hook: hel stops the hook's process group, then exits 143",
    ],
  ] as const
) {
  Deno.test(title, async () => {
    const sleep = uniqueSleep();
    await using project = await hookedProject([
      group("^search_replace$", command(`sleep ${sleep} & echo $! > child.pid; sleep ${sleep}`)),
    ]);
    await using model = scriptedModel(editThenAnswer());
    const child = spawnHel(project, [...baseArgs(model), "-i", "go"]);
    for (
      let i = 0;
      i < 600 && !(await project.read("child.pid").catch(() => "")).endsWith("\n");
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill(signal);
    const output = await child.output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, code, stderr);
    assert.equal(await project.read("a.txt"), "old\n", "the edit did not run");
    assert.doesNotMatch(stderr, /hook 1 error/);
    assert.ok(await noSleepLeft(sleep), "the hook's process group was stopped");
  });
}

Deno.test("a hook script that is not executable or names a missing interpreter is a hook error", async () => {
  await using project = await hookedProject(
    [group("^search_replace$", command("./guard.sh"), command("./python-guard"))],
    [group("^search_replace$", command("./guard.sh"))],
  );
  await project.write("guard.sh", "#!/bin/sh\nexit 2\n"); // mode 0644: not executable
  await project.write("python-guard", "#!/nonexistent/python3\nexit 2\n");
  await Deno.chmod(`${project.project}/python-guard`, 0o755);
  await using model = scriptedModel(editThenAnswer());
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /PreToolUse hook 1 error for search_replace: exited with code 126; stderr: .*Permission denied \(the call goes on\)/,
  );
  assert.match(
    run.stderr,
    /PreToolUse hook 2 error for search_replace: exited with code 127; stderr: .*not found \(the call goes on\)/,
  );
  assert.match(run.stderr, /PostToolUse hook 1 error for search_replace: exited with code 126;/);
  assert.equal(toolMessage(model, "call_edit"), "replaced 1 occurrence in a.txt");
  assert.equal(await project.read("a.txt"), "new\n");
});

Deno.test("tool input reaches a hook only as JSON on stdin, never through the shell", async () => {
  await using project = await hookedProject([group(undefined, command("cat > seen.json"))]);
  const content = '"; touch pwned1; " $(touch pwned2) `touch pwned3`\n; touch pwned4 \'';
  const write = { id: "call_w", name: "write_file", arguments: { path: "w.txt", content } };
  await using model = scriptedModel([{ toolCalls: [write] }, { text: "done" }]);
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(await project.read("seen.json")).tool_input, write.arguments);
  for (const marker of ["pwned1", "pwned2", "pwned3", "pwned4"]) {
    assert.equal(await exists(`${project.project}/${marker}`), false, marker);
  }
  assert.equal(await project.read("w.txt"), content);
});

Deno.test("unsandboxed hooks that name project files outside .hel are warned about; scripts in .hel are not", async () => {
  const outside = { sandbox: false };
  await using project = await hookedProject([
    group(
      undefined,
      command("sh scripts/guard.sh && ./lint.sh --fix", outside),
      command("sh .hel/ok.sh", outside),
      // Sandboxed: what it runs has no more rights than the model's commands.
      command("sh other.sh"),
    ),
  ], [group(undefined, command("echo done; exit 0"))]);
  await project.write("other.sh", "exit 0\n");
  await project.write("scripts/guard.sh", "exit 0\n");
  await project.write("lint.sh", "exit 0\n");
  await project.write(".hel/ok.sh", "exit 0\n");
  await using model = scriptedModel(editThenAnswer());
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /hel: warning: project hooks with "sandbox": false name files the model can change \(lint\.sh, scripts\/guard\.sh\); such hooks run outside the sandbox, .* A hook whose file changed since hel last ran it is asked about first, and one whose file changes during the run is not run\. Keep such scripts in \.hel\/, which the model cannot change, or let the hook run in the sandbox\n/,
  );

  await using safe = await hookedProject([group(undefined, command("sh .hel/ok.sh", outside))]);
  await safe.write(".hel/ok.sh", "exit 0\n");
  await using again = scriptedModel(editThenAnswer());
  const quiet = await helRun(safe, again, [], runHelInProcess);
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.doesNotMatch(quiet.stderr, /files the model can change/);
});

Deno.test('a hook script the model rewrites during the run is not run: Pre blocks, Post keeps ("sandbox": false)', async () => {
  await using project = await hookedProject(
    [group("^read_file$", command("sh scripts/guard.sh", { sandbox: false }))],
    [group("^write_file$", command("./scripts/after.sh", { sandbox: false }))],
  );
  await project.write("scripts/guard.sh", "exit 0\n");
  await project.write("scripts/after.sh", "#!/bin/sh\nexit 0\n");
  await Deno.chmod(`${project.project}/scripts/after.sh`, 0o755);
  const escaped = `${project.root}/escaped`;
  const rewrite = (path: string) => ({
    id: `call_${path.slice(8, -3)}`,
    name: "write_file",
    arguments: { path, content: `#!/bin/sh\ntouch ${escaped}\n` },
  });
  await using model = scriptedModel([
    { toolCalls: [rewrite("scripts/guard.sh"), rewrite("scripts/after.sh")] },
    { toolCalls: [{ id: "call_read", name: "read_file", arguments: { path: "a.txt" } }] },
    { text: "done" },
  ]);
  const run = await helRun(project, model, [], runHelInProcess);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await exists(escaped), false, "the rewritten script ran outside the sandbox");
  assert.equal(
    toolMessage(model, "call_read"),
    "error: PreToolUse hook blocked read_file: hook 1 was not run: scripts/guard.sh changed " +
      'since hel checked it, and this hook runs outside the sandbox ("sandbox": false), so hel ' +
      "does not run a file the model may have rewritten; ask the user to review the change and " +
      "start hel again on a terminal",
  );
  assert.match(
    run.stderr,
    /hel: warning: PreToolUse hook 1 was not run: .* \(the call is blocked\)/,
  );
  // PostToolUse: after.sh still ran after the first write, not after the write that changed it.
  assert.match(toolMessage(model, "call_after"), /^wrote \d+ bytes to scripts\/after\.sh$/);
  assert.match(
    run.stderr,
    /hel: warning: PostToolUse hook 1 was not run: scripts\/after\.sh changed .* \(the result is kept\)/,
  );
});
