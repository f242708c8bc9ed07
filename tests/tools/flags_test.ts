/**
 * The tools plugin's flags through the real CLI: `--tools`, `--sandbox`, `--sandbox-network`,
 * `--bash-timeout`, and the refusals when bubblewrap or ripgrep is missing.
 */
import assert from "node:assert/strict";
import { findSystemProgram } from "../../kit/mod.ts";
import { hasBwrap } from "../../plugins/tools/testing.ts";
import { runHel, scriptedModel, tempProject } from "../_helpers.ts";
import { command, group, hooksJson, trustHooks } from "../_hooks.ts";
import { runHelInProcess, testRun } from "../_run.ts";

const BUILT_IN = ["bash", "read_file", "write_file", "search_replace", "glob", "grep"];
const SANDBOX = hasBwrap() ? [] : ["--sandbox", "off"];

// deno-lint-ignore no-explicit-any
function toolReplies(messages: any[]): string[] {
  return messages.filter((message) => message.role === "tool").map((message) => message.content);
}

/** A folder of links to the named programs, to run hel with a PATH missing the others. */
async function binWith(root: string, programs: string[]): Promise<string> {
  const bin = `${root}/bin-${programs.join("-") || "none"}`;
  await Deno.mkdir(bin);
  for (const program of programs) {
    const found = findSystemProgram(program);
    assert.ok(found, `${program} is needed by this test`);
    await Deno.symlink(found, `${bin}/${program}`);
  }
  return bin;
}

Deno.test("--tools offers the chosen built-in tools, in the order given", async () => {
  await using result = await testRun({
    turns: [{ text: "ok" }],
    flags: ["--tools", "grep, read_file,grep", "hi"],
  });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(result.model.requests[0]!.toolNames.filter((name) => BUILT_IN.includes(name)), [
    "grep",
    "read_file",
  ]);
});

Deno.test("an unknown --tools name is a usage error that lists the known tools", async () => {
  await using result = await testRun({
    turns: [{ text: "never" }],
    flags: ["--tools", "read_file,cat", "hi"],
  });
  assert.equal(result.code, 2);
  assert.match(
    result.stderr,
    /^hel: --tools: unknown tool: cat \(known: bash, read_file, write_file, search_replace, glob, grep\)$/m,
  );
  assert.equal(result.model.requests.length, 0);
});

Deno.test("bad sandbox flag values are usage errors", async () => {
  await using project = await tempProject();
  for (
    const args of [
      ["--sandbox", "maybe"],
      ["--sandbox-network", "no"],
      ["--bash-timeout", "0"],
      // Beyond what a timer holds, every command would be killed as soon as it started.
      ["--bash-timeout", "3000000"],
    ]
  ) {
    const result = await runHelInProcess([...args, "hi"], { cwd: project.project });
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, new RegExp(args[0]!));
  }
});

Deno.test("--sandbox off warns at start and runs commands unsandboxed", async () => {
  await using result = await testRun({
    turns: [
      { toolCalls: [{ name: "bash", arguments: { command: "echo $TMPDIR-ok" } }] },
      { text: "ok" },
    ],
    flags: ["--access", "auto", "--sandbox", "off", "hi"],
    env: { TMPDIR: "/var/tmp" },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /^hel: warning: --sandbox off: commands \(bash, glob, grep\), hooks and MCP servers run without a sandbox and can read and change anything your user account can$/m,
  );
  assert.deepEqual(toolReplies(result.model.requests[1]!.messages), ["exit=0\n/var/tmp-ok\n"]);
});

Deno.test("without bubblewrap, bash, glob and grep refuse and say how to fix it", async () => {
  await using project = await tempProject({ "a.txt": "a\n" });
  const bin = await binWith(project.root, ["setsid", "rg"]);
  await using model = scriptedModel([
    {
      toolCalls: [
        { name: "bash", arguments: { command: "touch ran.txt" } },
        { name: "grep", arguments: { pattern: "a" } },
        { name: "glob", arguments: { pattern: "*" } },
        { name: "read_file", arguments: { path: "a.txt" } },
      ],
    },
    { text: "ok" },
  ]);
  const result = await runHel(
    ["--base-url", model.url, "--access", "auto", "hi"],
    { cwd: project.project, env: { PATH: bin } },
  );
  assert.equal(result.code, 0, result.stderr);
  const refusal = "error: the command was not run: hel runs commands only inside a sandbox, and " +
    "bubblewrap (bwrap) is not installed. Ask the user to install the bubblewrap package " +
    "(apt install bubblewrap, dnf install bubblewrap, pacman -S bubblewrap) or restart hel " +
    "with --sandbox off to run commands without a sandbox";
  assert.deepEqual(toolReplies(model.requests[1]!.messages), [refusal, refusal, refusal, "a\n"]);
  assert.match(
    result.stderr,
    /^hel: warning: sandbox unavailable: hel runs commands only inside a sandbox, and bubblewrap \(bwrap\) is not installed; programs in the sandbox \(commands, hooks, MCP servers\) will not run\. To fix it, install the bubblewrap package .* or start hel with --sandbox off to run them without a sandbox$/m,
  );
  await assert.rejects(Deno.stat(`${project.project}/ran.txt`));
});

Deno.test("without bubblewrap, a run with tools and hooks warns once, naming all it affects", async () => {
  await using project = await tempProject({
    "a.txt": "a\n",
    ".hel/hooks.json": hooksJson([group(undefined, command("touch hooked.txt"))]),
  });
  await trustHooks(project);
  const bin = await binWith(project.root, ["setsid", "rg"]);
  await using model = scriptedModel([
    { toolCalls: [{ name: "bash", arguments: { command: "touch ran.txt" } }] },
    { text: "ok" },
  ]);
  const result = await runHel(
    ["--base-url", model.url, "--access", "auto", "hi"],
    { cwd: project.project, env: { PATH: bin } },
  );
  assert.equal(result.code, 0, result.stderr);
  const warnings = result.stderr.split("\n").filter((line) => line.includes("sandbox unavailable"));
  assert.equal(warnings.length, 1, result.stderr);
  assert.match(
    warnings[0]!,
    /^hel: warning: sandbox unavailable: .*\(commands, hooks, MCP servers\) will not run/,
  );
  await assert.rejects(Deno.stat(`${project.project}/hooked.txt`));
});

Deno.test("without ripgrep, glob and grep name the package to install", async () => {
  await using project = await tempProject({ "a.txt": "a\n" });
  const bin = await binWith(project.root, ["setsid"]);
  await using model = scriptedModel([
    { toolCalls: [{ name: "glob", arguments: { pattern: "*" } }] },
    { text: "ok" },
  ]);
  const result = await runHel(
    ["--base-url", model.url, "--access", "auto", "--sandbox", "off", "hi"],
    { cwd: project.project, env: { PATH: bin } },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolReplies(model.requests[1]!.messages), [
    "error: ripgrep (rg) is not installed, and glob and grep need it. Ask the user to install " +
    "the ripgrep package (apt install ripgrep, dnf install ripgrep, brew install ripgrep); " +
    "meanwhile use read_file or bash",
  ]);
});

Deno.test("--bash-timeout stops a command and everything it started", async () => {
  const marker = `hel-cli-timeout-${crypto.randomUUID()}`;
  await using result = await testRun({
    turns: [
      {
        toolCalls: [{
          name: "bash",
          arguments: { command: `echo begun; bash -c 'exec -a ${marker} sleep 300' & sleep 300` },
        }],
      },
      { text: "ok" },
    ],
    flags: ["--access", "auto", "--bash-timeout", "2", ...SANDBOX, "hi"],
  });
  const model = result.model;
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolReplies(model.requests[1]!.messages), [
    "error: exit=killed\nbegun\n\n[The command was still running after 2 seconds, so it was " +
    "stopped and every process it started was killed. Split the work into shorter commands, " +
    "or limit what it processes.]",
  ]);
  const left = new Deno.Command("pgrep", { args: ["-f", marker] }).outputSync();
  assert.equal(new TextDecoder().decode(left.stdout), "", "a background process survived");
  // The model was told the limit in the tool's description.
  // deno-lint-ignore no-explicit-any
  const bash = (model.requests[0]!.body.tools as any[]).find((t) => t.function.name === "bash");
  assert.match(bash.function.description, /Time limit per command: 2 seconds\.\n$/);
});
