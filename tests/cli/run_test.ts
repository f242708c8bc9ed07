/**
 * End-to-end tests of the CLI foundation: the real `main.ts` as a subprocess against the
 * scripted model.
 */
import assert from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };
import { REPO_ROOT, runHel, scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { HEL_FOLDER_GITIGNORE } from "../../kit/config/hel_folder.ts";

const base = (url: string) => ["--base-url", url, "--model", "test-model", "--access", "auto"];

Deno.test("a one-shot run prints the final answer alone on stdout, session and tool lines on stderr", async () => {
  await using project = await tempProject({ "notes.txt": "the code is 7\n" });
  await using model = scriptedModel([
    { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] },
    { text: "The code is 7." },
  ]);
  const result = await runHelInProcess([...base(model.url), "what is the code?"], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "The code is 7.\n");
  assert.match(result.stderr, /^session: [0-9a-f-]{36}$/m);
  assert.match(result.stderr, /^\[tool\] read_file \{"path":"notes.txt"\}$/m);
  // Usage summed over the run; the scripted model reports half the prompt as cached.
  assert.match(
    result.stderr,
    /^\[usage: 2 model calls · input [\d,]+ · output 20 · cached [\d,]+\]$/m,
  );
  assert.equal(model.remaining(), 0);
  // The tool result reached the model in a tool message answering the call.
  const second = model.requests[1]!.messages;
  const call = second.at(-2);
  const answer = second.at(-1);
  assert.equal(answer.role, "tool");
  assert.equal(answer.tool_call_id, call.tool_calls[0].id);
  assert.match(answer.content, /the code is 7/);
  // The session folder exists and .hel is ignored by git.
  const id = result.stderr.match(/session: (\S+)/)![1];
  assert.ok((await Deno.stat(`${project.project}/.hel/sessions/${id}`)).isDirectory);
  assert.equal(await project.read(".hel/.gitignore"), HEL_FOLDER_GITIGNORE);
});

for (const stream of [true, false]) {
  Deno.test(`requests are well-formed Chat Completions (${stream ? "streaming" : "non-streaming"})`, async () => {
    await using project = await tempProject({ "HEL.md": "Always be brief." });
    await using model = scriptedModel([
      { toolCalls: [{ name: "read_file", arguments: { path: "HEL.md" } }], reasoning: "hmm" },
      { text: "brief." },
    ]);
    const args = [...base(model.url), ...(stream ? [] : ["--no-stream"]), "-i", "go"];
    const result = await runHelInProcess(args, { cwd: project.project });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "brief.\n");
    const [first, second] = model.requests.map((r) => r.body);
    assert.equal(first!.model, "test-model");
    assert.equal(first!.stream ?? false, stream);
    const system = (first!.messages as { role: string; content: string }[])[0]!;
    assert.equal(system.role, "system");
    assert.match(system.content, /Environment:\n- OS: /);
    assert.match(
      system.content,
      /Contents of HEL.md in the working directory:\n\nAlways be brief\./,
    );
    assert.deepEqual((first!.messages as unknown[])[1], { role: "user", content: "go" });
    assert.ok(Array.isArray(first!.tools) && (first!.tools as unknown[]).length > 0);
    // The assistant message is sent back unchanged, DeepSeek's reasoning_content included.
    const assistant = (second!.messages as Record<string, unknown>[])[2]!;
    assert.equal(assistant.role, "assistant");
    assert.equal(assistant.reasoning_content, "hmm");
    assert.equal(model.remaining(), 0);
  });
}

Deno.test("the Environment block names bash as the shell commands run in, and a login shell besides", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "ok" }]);
  const result = await runHelInProcess([...base(model.url), "hi"], {
    cwd: project.project,
    env: { SHELL: "/usr/bin/fish" },
  });
  assert.equal(result.code, 0, result.stderr);
  const system = model.requests[0]!.messages[0].content as string;
  assert.match(system, /^- Shell: bash \(the user's login shell is \/usr\/bin\/fish\)$/m);
});

Deno.test("the Shell line comes with bash: without it the Environment block names no shell", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "ok" }]);
  const result = await runHelInProcess([...base(model.url), "--tools", "read_file", "hi"], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  const system = model.requests[0]!.messages[0].content as string;
  assert.match(system, /^Environment:\n- OS: .*\n- Working directory: /m);
  assert.doesNotMatch(system, /Shell:/);
});

Deno.test("--no-env and --no-context-file leave those parts out", async () => {
  await using project = await tempProject({ "HEL.md": "secret house rules" });
  await using model = scriptedModel([{ text: "ok" }]);
  const result = await runHelInProcess(
    [...base(model.url), "--no-env", "--no-context-file", "hi"],
    {
      cwd: project.project,
    },
  );
  assert.equal(result.code, 0, result.stderr);
  const system = model.requests[0]!.messages[0].content as string;
  assert.doesNotMatch(system, /Environment:|house rules/);
});

Deno.test("a context file symlinked inside the project is read; one pointing outside is not, with a warning", async () => {
  await using project = await tempProject({ "AGENTS.md": "House rules from AGENTS.md." });
  await Deno.writeTextFile(`${project.root}/secret.txt`, "aws_secret=hunter2");
  await Deno.symlink(`${project.project}/AGENTS.md`, `${project.project}/HEL.md`);
  await Deno.symlink(`${project.root}/secret.txt`, `${project.project}/OUT.md`);
  await using model = scriptedModel([{ text: "a" }, { text: "b" }, { text: "c" }]);
  const inside = await runHelInProcess([...base(model.url), "hi"], { cwd: project.project });
  assert.equal(inside.code, 0, inside.stderr);
  assert.match(model.requests[0]!.messages[0].content, /House rules from AGENTS\.md\./);
  assert.doesNotMatch(inside.stderr, /warning: (?!hel runs as root)/); // root gets that one

  const outside = await runHelInProcess([...base(model.url), "--context-file", "OUT.md", "hi"], {
    cwd: project.project,
  });
  assert.equal(outside.code, 0, outside.stderr);
  assert.doesNotMatch(model.requests[1]!.messages[0].content, /hunter2/);
  assert.match(
    outside.stderr,
    /^hel: warning: context file \S+\/OUT\.md is a symlink to \S+\/secret\.txt, outside the project/m,
  );
  // A name the user gave that is not there is said, not silently dropped.
  const typo = await runHelInProcess([...base(model.url), "--context-file", "NOTES.md", "hi"], {
    cwd: project.project,
  });
  assert.match(typo.stderr, /context file \S+\/NOTES\.md does not exist \(check --context-file\)/);
  assert.equal(model.remaining(), 0);
});

Deno.test("a context file reached through a symlinked folder outside the project is not read", async () => {
  await using project = await tempProject();
  await Deno.mkdir(`${project.root}/elsewhere`);
  await Deno.writeTextFile(`${project.root}/elsewhere/AGENTS.md`, "aws_secret=hunter2");
  await Deno.symlink(`${project.root}/elsewhere`, `${project.project}/docs`);
  await using model = scriptedModel([{ text: "a" }]);
  const result = await runHelInProcess([
    ...base(model.url),
    "--context-file",
    "docs/AGENTS.md",
    "hi",
  ], {
    cwd: project.project,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(model.requests[0]!.messages[0].content, /hunter2/);
  assert.match(
    result.stderr,
    /context file \S+\/docs\/AGENTS\.md leads through a symlinked folder to \S+\/elsewhere\/AGENTS\.md, outside the project/,
  );
});

Deno.test("a 429 and a 500 are retried, then the run succeeds", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ fail: 429 }, { fail: 500 }, { text: "made it" }]);
  const result = await runHelInProcess([...base(model.url), "hi"], { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "made it\n");
  assert.match(result.stderr, /HTTP 429.*retry 1/);
  assert.match(result.stderr, /HTTP 500.*retry 2/);
  // Retries are attempts of one model call.
  assert.match(result.stderr, /^\[usage: 1 model call · /m);
});

Deno.test("a model API that keeps failing ends the run with a clear error and exit 1", async () => {
  await using project = await tempProject();
  await using model = scriptedModel(Array(5).fill({ fail: 500 }));
  const result = await runHelInProcess([...base(model.url), "hi"], { cwd: project.project });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^hel: model API returned HTTP 500.*gave up after 5 attempts/m);
  assert.equal(model.remaining(), 0);
});

Deno.test("reaching --max-turns is an error with exit 1", async () => {
  await using project = await tempProject({ "a.txt": "a" });
  const call = { toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] };
  await using model = scriptedModel([call, call]);
  const result = await runHelInProcess([...base(model.url), "--max-turns", "2", "loop"], {
    cwd: project.project,
  });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /hel: stopped after 2 model calls .*raise --max-turns/);
});

Deno.test("an answer cut off at the output limit is printed, then named with the fix (exit 1)", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "The first half", finishReason: "length" }]);
  const result = await runHelInProcess([...base(model.url), "explain"], { cwd: project.project });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "The first half\n");
  assert.match(result.stderr, /^hel: the answer was cut off .*raise --max-output-tokens/m);
});

Deno.test("a missing API key is a setup error naming both variables (exit 2)", async () => {
  await using project = await tempProject();
  const result = await runHelInProcess(["hi"], {
    cwd: project.project,
    unset: ["HEL_API_KEY", "DEEPSEEK_API_KEY"],
    env: { HEL_API_KEY: "" },
  });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^hel: no model API key: set HEL_API_KEY or DEEPSEEK_API_KEY/);
});

Deno.test("usage errors exit 2 with a hel: message", async () => {
  await using project = await tempProject();
  const unknown = await runHelInProcess(["--frobnicate"], { cwd: project.project });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^hel: unknown option '--frobnicate'/);
  const badAccess = await runHelInProcess(["--access", "yolo", "hi"], { cwd: project.project });
  assert.equal(badAccess.code, 2);
  assert.match(badAccess.stderr, /--access <level>.*yolo.*read-only, confirm, auto/);
  const badTurns = await runHelInProcess(["--max-turns", "0", "hi"], { cwd: project.project });
  assert.equal(badTurns.code, 2);
  for (const blank of [["-i", ""], ["   "]]) {
    const empty = await runHelInProcess(["--base-url", "http://127.0.0.1:9/v1", ...blank], {
      cwd: project.project,
    });
    assert.equal(empty.code, 2, empty.stderr);
    assert.match(empty.stderr, /^hel: no instruction: pass it as words/m);
    assert.doesNotMatch(empty.stderr, /session:/);
  }
  const badTimeout = await runHelInProcess(["--timeout", "3000000", "hi"], {
    cwd: project.project,
  });
  assert.equal(badTimeout.code, 2);
  assert.match(badTimeout.stderr, /--timeout <seconds>.*'3000000' is invalid\. at most 2147483/);
  const badWithout = await runHelInProcess(["--without", "nope", "hi"], { cwd: project.project });
  assert.equal(badWithout.code, 2);
  assert.match(badWithout.stderr, /--without nope: no such plugin/);
});

Deno.test("a base URL that is not an http(s) URL is a usage error naming where it came from", async () => {
  await using project = await tempProject();
  const flag = await runHelInProcess(["--base-url", "api.deepseek.com", "hi"], {
    cwd: project.project,
  });
  assert.equal(flag.code, 2, flag.stderr);
  assert.match(flag.stderr, /^hel: option '--base-url <url>' argument 'api\.deepseek\.com'/m);
  assert.match(flag.stderr, /expected an http:\/\/ or https:\/\/ URL/);
  assert.doesNotMatch(flag.stderr, /session:|retry/);
  // A child process: commander reads HEL_BASE_URL from the process's own environment.
  const env = await runHel(["hi"], { cwd: project.project, env: { HEL_BASE_URL: "ftp://x" } });
  assert.equal(env.code, 2, env.stderr);
  assert.match(env.stderr, /value 'ftp:\/\/x' from env 'HEL_BASE_URL' is invalid/);
});

Deno.test("--version and --help exit 0", async () => {
  await using project = await tempProject();
  const version = await runHelInProcess(["--version"], { cwd: project.project });
  assert.equal(version.code, 0);
  assert.equal(version.stdout.split("\n")[0], `hel ${denoJson.version}`);
  const help = await runHelInProcess(["--help"], { cwd: project.project });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Examples:/);
  assert.match(help.stdout, /--access <level>/);
});

Deno.test("plugins list follows deno.json, in order, with tools and what each does in words", async () => {
  await using project = await tempProject();
  const result = await runHelInProcess(["plugins", "list"], { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  const entries = denoJson.hel.plugins.map((e) => (typeof e === "string" ? e : e[0]));
  const modules = [...result.stdout.matchAll(/^ {2}module: +(\S+)$/gm)].map((m) => m[1]);
  assert.deepEqual(modules, entries);
  assert.match(result.stdout, /^tools .*\n.*\n {2}tools: +.*read_file/m);
  const hooks = result.stdout.split("\n\n").find((block) => block.startsWith("hooks "));
  assert.match(
    hooks ?? "",
    /\n {2}does: {6}checks tool calls before they run \(and may block them\)\n {13}sees tool results, and may change them\n {13}cleans up when hel exits\n/,
  );
  // The words a person reads, not the names of the plugin interface's hooks.
  assert.doesNotMatch(
    result.stdout,
    /(?<!-)\b(setup|systemPrompt|environmentLines|toolDefinitions|lookupTool|beforeToolCall|afterToolCall|afterCompaction|saveState|restoreState|observe|shutdown)\b/,
  );
});

Deno.test("--without removes a plugin's tools from every request", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "with" }, { text: "without" }]);
  await runHelInProcess([...base(model.url), "hi"], { cwd: project.project });
  await runHelInProcess([...base(model.url), "--without", "tools", "hi"], { cwd: project.project });
  assert.ok(model.requests[0]!.toolNames.includes("read_file"));
  assert.ok(!model.requests[1]!.toolNames.includes("read_file"));
  assert.equal(model.remaining(), 0);
});

Deno.test("README quickstart names the commands that exist", async () => {
  const readme = await Deno.readTextFile(`${REPO_ROOT}/README.md`);
  assert.match(readme, /npm install -g deno@2\.9\.6/);
  assert.match(readme, /deno task demo/);
  assert.match(readme, /deno task test/);
  for (const task of ["demo", "test"]) assert.ok(task in denoJson.tasks);
});

Deno.test("deno task demo fixes the typo through hel's tools, offline", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", `${REPO_ROOT}/fixtures/demo.ts`],
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  assert.match(stdout, /the model is REPLAYED/);
  assert.match(stderr, /^\[tool\] search_replace /m);
  assert.match(stdout, /greeting\.txt now:\nHello, world!\n/);
});
