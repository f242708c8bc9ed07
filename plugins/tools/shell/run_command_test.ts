import assert from "node:assert/strict";
import { CAPTURE_BYTES, runCommand } from "./run_command.ts";

const base = { cwd: "/", env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" } };

Deno.test("runCommand reports exit codes, signals and both streams", async () => {
  const outcome = await runCommand({
    ...base,
    program: "/bin/sh",
    args: ["-c", "echo out; echo err >&2; exit 4"],
  });
  assert.deepEqual(outcome, {
    kind: "finished",
    code: 4,
    signal: null,
    stdout: "out\n",
    stderr: "err\n",
    timedOut: false,
    interrupted: false,
    truncated: false,
  });
  const killed = await runCommand({ ...base, program: "/bin/sh", args: ["-c", "kill -9 $$"] });
  assert.equal(killed.kind === "finished" && killed.signal, "SIGKILL");
});

Deno.test("runCommand passes only the environment it is given", async () => {
  const outcome = await runCommand({
    cwd: "/",
    env: { ONLY: "this" },
    program: "/usr/bin/env",
    args: [],
  });
  assert.equal(outcome.kind === "finished" && outcome.stdout, "ONLY=this\n");
});

Deno.test("runCommand keeps a bounded amount of output and drains the rest", async () => {
  const outcome = await runCommand({
    ...base,
    program: "/bin/sh",
    args: ["-c", `head -c ${CAPTURE_BYTES + 4096} /dev/zero; echo done >&2`],
  });
  assert.equal(outcome.kind, "finished");
  if (outcome.kind !== "finished") return;
  assert.equal(outcome.stdout.length, CAPTURE_BYTES);
  assert.equal(outcome.truncated, true);
  assert.equal(outcome.stderr, "done\n");
});

Deno.test("runCommand kills the group on abort and says it was interrupted", async () => {
  const controller = new AbortController();
  const running = runCommand({
    ...base,
    program: "/bin/sh",
    args: ["-c", "echo begun; sleep 300 & wait"],
    signal: controller.signal,
  });
  setTimeout(() => controller.abort(), 200);
  const outcome = await running;
  assert.equal(outcome.kind === "finished" && outcome.interrupted, true);
});

Deno.test("runCommand reports a program that cannot start", async () => {
  const outcome = await runCommand({ cwd: "/nonexistent-dir", env: {}, program: "x", args: [] });
  assert.equal(outcome.kind, "not-started");
});
