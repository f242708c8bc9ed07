/**
 * Text piped to hel: the instruction itself, or material that goes with an instruction given
 * as words (`git diff | hel "review this"`), bounded in size, and waited for out loud.
 */
import assert from "node:assert/strict";
import { MAIN_TS, scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const base = (url: string) => ["--base-url", url, "--model", "test-model", "--access", "auto"];

Deno.test("an instruction can come on stdin when stdin is not a terminal", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "piped ok" }]);
  const result = await runHelInProcess(base(model.url), {
    cwd: project.project,
    stdin: "from a pipe\n",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(model.requests[0]!.messages[1].content, "from a pipe");
});

Deno.test("text piped with an instruction reaches the model after it, inside <stdin>", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "looks fine" }]);
  const diff = "diff --git a/x b/x\r\n+added line\r\n";
  const result = await runHelInProcess([...base(model.url), "review", "this"], {
    cwd: project.project,
    stdin: diff,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "looks fine\n");
  assert.equal(
    model.requests[0]!.messages[1].content,
    "review this\n\n<stdin>\ndiff --git a/x b/x\n+added line\n</stdin>",
  );
  // Nothing piped: the instruction alone, as before.
  await using quiet = scriptedModel([{ text: "ok" }]);
  await runHelInProcess([...base(quiet.url), "hi"], { cwd: project.project, stdin: "" });
  assert.equal(quiet.requests[0]!.messages[1].content, "hi");
});

Deno.test("piped text over the limit is a usage error that says what to do; no request", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "never" }]);
  const result = await runHelInProcess([...base(model.url), "summarise"], {
    cwd: project.project,
    stdin: "x".repeat(200_001),
  });
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /^hel: standard input has more than 200,000 characters, more than hel sends in one message\. Save it to a file in the project and name the file in the instruction/m,
  );
  assert.equal(model.requests.length, 0);
});

Deno.test("hel waits for a slow pipe, says so, and sends what finally came", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([{ text: "done" }]);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN_TS, ...base(model.url), "explain"],
    cwd: project.project,
    env: { HEL_API_KEY: "test-key", HEL_HOME: `${project.root}/hel-home`, NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Read stderr as it comes, until the notice shows that hel is waiting for input.
  let stderr = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  while (!stderr.includes("waiting for standard input")) {
    const { value, done } = await reader.read();
    if (done) break;
    stderr += value;
  }
  assert.match(
    stderr,
    /hel: waiting for standard input to end \(it goes to the model with the instruction\); run hel with <\/dev\/null to give none/,
  );
  assert.equal(model.requests.length, 0, "nothing is sent before the input ends");
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode("late output\n"));
  await writer.close();
  const stdout = new Response(child.stdout).text();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    stderr += chunk.value;
  }
  const status = await child.status;
  assert.equal(status.code, 0, stderr);
  assert.equal(await stdout, "done\n");
  assert.equal(model.requests[0]!.messages[1].content, "explain\n\n<stdin>\nlate output\n</stdin>");
  assert.equal(model.remaining(), 0);
});
