/**
 * Issue 11, class F: bounds on what one tool call can cost. `search_replace` on a 2 GiB sparse
 * file took 6.4 GB of memory; `read_file` with `start_line: 2` on a 40 GiB sparse file scanned
 * for minutes and Ctrl-C did not stop it; a 5 MB `HEL.md` the model wrote made every later
 * request 1.35 M tokens; a repository's skills list had no bound either; a fork bomb in the
 * sandbox met no process limit.
 */
import assert from "node:assert/strict";
import { hasBwrap, threadProbe } from "../../plugins/tools/testing.ts";
import {
  eventually,
  runHel,
  scriptedModel,
  spawnHel,
  type TempProject,
  tempProject,
  toolMessage,
} from "../_helpers.ts";

const GiB = 1024 * 1024 * 1024;

/** A file of `size` zero bytes that takes no disk space. */
async function sparse(project: TempProject, name: string, size: number): Promise<void> {
  await project.write(name, "");
  await Deno.truncate(`${project.project}/${name}`, size);
}

/** The peak resident memory of process `pid` so far, in bytes (VmHWM). */
async function peakMemory(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(status.match(/^VmHWM:\s+(\d+) kB$/m)?.[1]) * 1024;
}

/** A project holding `zeros.bin`, 40 GiB of zeros: one line without an end. */
async function zerosProject(): Promise<TempProject & AsyncDisposable> {
  const project = await tempProject();
  await sparse(project, "zeros.bin", 40 * GiB);
  return project;
}

/** The model asks for the second line of `zeros.bin`. */
const SEEK = {
  toolCalls: [{ id: "seek", name: "read_file", arguments: { path: "zeros.bin", start_line: 2 } }],
};

const systemText = (model: { requests: { messages: { content: unknown }[] }[] }) =>
  String(model.requests[0]!.messages[0]!.content);

Deno.test("search_replace on a 2 GiB sparse file is refused without loading it", async () => {
  await using project = await tempProject();
  await sparse(project, "big.txt", 2 * GiB);
  let peak = 0;
  await using model = scriptedModel([
    {
      toolCalls: [{
        id: "edit",
        name: "search_replace",
        arguments: {
          path: "big.txt",
          search: "abc",
          replace: "x",
        },
      }],
    },
    // hel waits for this answer, so its peak memory now includes the call.
    async () => {
      peak = await peakMemory(hel.pid);
      return { text: "done" };
    },
  ]);
  const hel = spawnHel(project, ["--base-url", model.url, "--access", "auto", "-i", "edit"]);
  const output = await hel.output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.equal(
    toolMessage(model, "edit"),
    "error: big.txt is 2,147,483,648 bytes, larger than the 32 MiB search_replace loads whole, " +
      "so nothing was changed. Work on it in parts instead: find the place with grep, read " +
      "around it with read_file (start_line, max_lines), and change it with a command in " +
      "bash, e.g. sed -i 's/old/new/' big.txt (or a short script)",
  );
  // Loading it took 6.4 GB; hel itself needs a few hundred MB at most.
  assert.ok(peak > 0 && peak < GiB, `hel's peak memory was ${peak} bytes`);
  assert.equal((await Deno.stat(`${project.project}/big.txt`)).size, 2 * GiB);
});

Deno.test("read_file start_line 2 in a 40 GiB one-line file pauses with a cursor", async () => {
  await using project = await zerosProject();
  await using model = scriptedModel([SEEK, { text: "done" }]);
  const result = await runHel(["--base-url", model.url, "-i", "read it"], { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    toolMessage(model, "seek"),
    /^\[read_file looked for line 2 of zeros\.bin and paused after 0 line breaks, at byte 268,435,456 of 42,949,672,960: one call scans at most 256 MiB\. Continue with read_file\(\{"cursor":"[0-9a-f-]{36}"\}\), or reach a far line at once with grep, or with sed -n '2,\+50p' zeros\.bin in bash\.\]\n$/,
  );
});

Deno.test("Ctrl-C stops a read_file scanning a 40 GiB file for its second line", async () => {
  await using project = await zerosProject();
  await using model = scriptedModel([SEEK, { text: "not reached" }]);
  // No scan budget: only the interruption can end this read early.
  const hel = spawnHel(project, [
    "--base-url",
    model.url,
    "--read-scan-bytes",
    String(1024 * GiB),
    "-i",
    "read it",
  ]);
  let exited = false;
  const status = hel.status.then((status) => (exited = true, status));
  try {
    const reading = async () => {
      const fds = `/proc/${hel.pid}/fd`;
      try {
        for await (const fd of Deno.readDir(fds)) {
          const target = await Deno.readLink(`${fds}/${fd.name}`).catch(() => "");
          if (target.endsWith("/zeros.bin")) return true;
        }
      } catch {
        // hel has ended.
      }
      return exited;
    };
    await eventually(reading, "hel to open zeros.bin");
    assert.equal(exited, false, "hel ended before it read the file");
    hel.kill("SIGINT");
    await eventually(() => exited, "hel to stop after Ctrl-C");
  } finally {
    if (!exited) hel.kill("SIGKILL");
    await hel.stderr.cancel();
    await hel.stdout.cancel();
  }
  assert.equal((await status).code, 130);
  assert.equal(model.requests.length, 1, "no request follows the interrupted call");
});

Deno.test("a 5 MB HEL.md reaches the model as its first 32 KiB and a note", async () => {
  await using project = await tempProject();
  const line = "Always run the whole test suite before answering. ".repeat(2) + "\n";
  await project.write("HEL.md", line.repeat(Math.ceil(5_000_000 / line.length)));
  await using model = scriptedModel([{ text: "done" }]);
  const result = await runHel(["--base-url", model.url, "-i", "hi"], { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  const system = systemText(model);
  const context = system.slice(system.indexOf("Contents of HEL.md"));
  assert.ok(context.length < 32 * 1024 + 1024, `${context.length} characters of HEL.md sent`);
  assert.match(
    context,
    /\[HEL\.md is 5,\d{3},\d{3} bytes; only the part above \(at most 32 KiB\) is shown here\. The rest is in the file: read it with read_file \(path HEL\.md, start_line 325\) when you need it\.\]/,
  );
  assert.match(
    result.stderr,
    /^hel: warning: context file \S+\/HEL\.md is 5,\d{3},\d{3} bytes, more than the 32 KiB hel sends to the model; it gets the first 32 KiB/m,
  );
});

Deno.test("300 skills and a 5 MB SKILL.md: the list stays within 32 KiB, with warnings", async () => {
  await using project = await tempProject();
  for (let i = 0; i < 300; i++) {
    const description = `Use for task ${i}, ${"step by step ".repeat(300)}`;
    await project.write(
      `.agents/skills/s${i}/SKILL.md`,
      `---\nname: s${i}\ndescription: ${description}\n---\nDo it.\n`,
    );
  }
  await project.write(
    ".agents/skills/huge/SKILL.md",
    `---\nname: huge\ndescription: huge\n---\n${"x".repeat(5_000_000)}\n`,
  );
  await using model = scriptedModel([{ text: "done" }]);
  const result = await runHel(["--base-url", model.url, "-i", "hi"], { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  const system = systemText(model);
  const skills = system.slice(system.indexOf("Available skills:"));
  assert.ok(skills.length < 32 * 1024 + 2048, `${skills.length} characters of skills listed`);
  assert.match(
    skills,
    /\d+ more skills are not listed here, to keep this list within 32 KiB; find them with glob/,
  );
  assert.match(
    result.stderr,
    /warning: the project has 300 skills; the list of them in each request is limited to 32 KiB, so \d+ are left out/,
  );
  assert.match(
    result.stderr,
    /warning: \.agents\/skills\/huge\/SKILL\.md: the file is larger than 1 MiB; skill skipped/,
  );
  assert.doesNotMatch(system, /"name": "huge"/);
});

Deno.test({
  name: "sandboxed commands meet a process limit, and a fork bomb ends with its call",
  ignore: !hasBwrap(),
  async fn() {
    await using project = await tempProject();
    const bomb = ":(){ :|:& };:";
    await using model = scriptedModel([
      { toolCalls: [{ id: "probe", name: "bash", arguments: { command: threadProbe(2000) } }] },
      // The fork bomb runs only where the probe met a limit: unbounded, it could bring this
      // machine down.
      (request) => {
        const probe = request.messages.find((m) => m.tool_call_id === "probe")?.content ?? "";
        const started = Number(String(probe).match(/started (\d+)/)?.[1] ?? 2000);
        return started < 1024
          ? { toolCalls: [{ id: "bomb", name: "bash", arguments: { command: bomb } }] }
          : { text: "no process limit" };
      },
      { text: "done" },
    ]);
    const result = await runHel(
      ["--base-url", model.url, "--access", "auto", "--bash-timeout", "5", "-i", "go"],
      { cwd: project.project },
    );
    assert.equal(result.code, 0, result.stderr);
    const probe = toolMessage(model, "probe");
    const started = Number(probe.match(/started (\d+)/)?.[1]);
    assert.ok(started > 0 && started < 1024, probe);
    // The bomb ran, was held at the limit, and ended with its call — by itself, or killed at
    // the call's time limit on a busy machine: hel went on to answer.
    assert.match(toolMessage(model, "bomb"), /^(error: )?exit=/);
    assert.equal(model.remaining(), 0);
  },
});
