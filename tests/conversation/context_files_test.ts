/**
 * The project's context files in the system message the model receives: `HEL.md` and
 * `AGENTS.md` by default, in that order, a list of one's own with `--context-file` (repeatable),
 * each within its own size limit, a missing one said only when the person named it.
 */
import assert from "node:assert/strict";
import { testRun } from "../_run.ts";

/** The system message of the model's first request. */
function systemOf(run: { model: { requests: { messages: { content: unknown }[] }[] } }): string {
  return run.model.requests[0]!.messages[0]!.content as string;
}

/** The lines of stderr that are warnings, without the one root gets at every start. */
function warnings(stderr: string): string[] {
  return stderr.split("\n").filter((line) =>
    line.startsWith("hel: warning:") && !line.includes("hel runs as root")
  );
}

Deno.test("HEL.md and AGENTS.md both reach the model, in that order, each once", async () => {
  await using run = await testRun({
    turns: [{ text: "ok" }],
    flags: ["hi"],
    files: { "AGENTS.md": "Agents: run deno task test.\n", "HEL.md": "Hel: be brief.\n" },
  });
  assert.equal(run.code, 0, run.stderr);
  const system = systemOf(run);
  assert.match(
    system,
    /\n\nContents of HEL\.md in the working directory:\n\nHel: be brief\.\n\nContents of AGENTS\.md in the working directory:\n\nAgents: run deno task test\.(\n\n|$)/,
  );
  assert.deepEqual(warnings(run.stderr), []);
});

Deno.test("AGENTS.md alone is read; no context file at all is no warning", async () => {
  await using run = await testRun({
    turns: [{ text: "ok" }, { text: "ok" }],
    flags: ["hi"],
    files: { "AGENTS.md": "Only agents.\n" },
  });
  assert.match(systemOf(run), /Contents of AGENTS\.md in the working directory:\n\nOnly agents\./);
  assert.doesNotMatch(systemOf(run), /Contents of HEL\.md/);
  assert.deepEqual(warnings(run.stderr), []);
  await Deno.remove(`${run.project.project}/AGENTS.md`);
  const none = await run.hel(["hi"]);
  assert.equal(none.code, 0, none.stderr);
  assert.doesNotMatch(run.model.requests[1]!.messages[0]!.content as string, /Contents of/);
  assert.deepEqual(warnings(none.stderr), []);
});

Deno.test("HEL.md linked to AGENTS.md is sent once", async () => {
  // The first run only makes the project; the link is made before the second.
  await using run = await testRun({
    turns: [{ text: "ok" }, { text: "ok" }],
    flags: ["--no-context-file", "hi"],
    files: { "AGENTS.md": "Shared rules.\n" },
  });
  await Deno.symlink(`${run.project.project}/AGENTS.md`, `${run.project.project}/HEL.md`);
  const linked = await run.hel(["hi"]);
  assert.equal(linked.code, 0, linked.stderr);
  const system = run.model.requests[1]!.messages[0]!.content as string;
  assert.equal(system.match(/Shared rules\./g)?.length, 1, system);
  assert.match(system, /Contents of HEL\.md in the working directory:\n\nShared rules\./);
});

Deno.test("--context-file replaces the default list, in the order given; a named file that is missing warns", async () => {
  await using run = await testRun({
    turns: [{ text: "ok" }, { text: "ok" }],
    flags: ["--context-file", "docs/NOTES.md", "--context-file", "AGENTS.md", "hi"],
    files: { "HEL.md": "not wanted", "AGENTS.md": "agents", "docs/NOTES.md": "notes" },
  });
  assert.equal(run.code, 0, run.stderr);
  const system = systemOf(run);
  assert.match(
    system,
    /Contents of docs\/NOTES\.md in the working directory:\n\nnotes\n\nContents of AGENTS\.md/,
  );
  assert.doesNotMatch(system, /not wanted/);

  await Deno.remove(`${run.project.project}/HEL.md`);
  const missing = await run.hel(["--context-file", "HEL.md", "hi"]);
  assert.equal(missing.code, 0, missing.stderr);
  assert.deepEqual(warnings(missing.stderr), [
    `hel: warning: context file ${run.project.project}/HEL.md does not exist (check ` +
    "--context-file); the system message goes without it",
  ]);
});

Deno.test("each context file has its own limit: a big AGENTS.md is cut with a note, HEL.md stays whole", async () => {
  const line = "Run the linters before every commit, and the tests after. ".repeat(3) + "\n";
  const big = line.repeat(Math.ceil(60_000 / line.length));
  const hel = "Hel rules. ".repeat(2_500) + "\n"; // about 27 KiB: within its own limit
  await using run = await testRun({
    turns: [{ text: "ok" }],
    flags: ["hi"],
    files: { "HEL.md": hel, "AGENTS.md": big },
  });
  assert.equal(run.code, 0, run.stderr);
  const system = systemOf(run);
  assert.ok(system.includes(hel.trimEnd()), "HEL.md is whole");
  const agents = system.slice(system.indexOf("Contents of AGENTS.md"));
  assert.ok(agents.length < 32 * 1024 + 1024, `${agents.length} characters of AGENTS.md sent`);
  assert.match(
    agents,
    /\n\[AGENTS\.md is \d{2},\d{3} bytes; only the part above \(at most 32 KiB\) is shown here\. The rest is in the file: read it with read_file \(path AGENTS\.md, start_line \d+\) when you need it\.\]$/,
  );
  assert.deepEqual(warnings(run.stderr), [
    `hel: warning: context file ${run.project.project}/AGENTS.md is ` +
    `${big.length.toLocaleString("en-US")} bytes, more than the 32 KiB hel sends to the model; ` +
    "it gets the first 32 KiB and a note that the rest is in the file. Shorten it to what " +
    "every request needs",
  ]);
});
