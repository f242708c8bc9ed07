import assert from "node:assert/strict";
import { runCommand } from "../../plugins/tools/run_command.ts";
import { hasBwrap, testWorkspace } from "../../plugins/tools/testing.ts";
import { joinCgroup, processLimit } from "./process_limit.ts";
import { createSandbox } from "./sandbox.ts";

Deno.test("an ordinary user's sandbox gets prlimit inside, or a warning without it", () => {
  const prlimit = processLimit(64, "/usr/bin:/bin", "/w/proj", 1000);
  if (prlimit.inside.length > 0) {
    assert.deepEqual(prlimit, { inside: [prlimit.inside[0], "--nproc=64:64", "--"] });
    assert.match(prlimit.inside[0]!, /\/prlimit$/);
  }
  const none = processLimit(64, "", "/w/proj", 1000);
  assert.deepEqual(none.inside, []);
  assert.match(none.missing ?? "", /prlimit \(util-linux\) is not installed/);
});

Deno.test("joining the cgroup comes first, then the launch runs as the same process", () => {
  assert.deepEqual(joinCgroup({ program: "/bin/sh", args: ["-c", "x"] }, "/cg/cgroup.procs"), {
    program: "/bin/sh",
    args: ["-c", 'echo $$ > "$0" && exec "$@"', "/cg/cgroup.procs", "/bin/sh", "-c", "x"],
  });
});

/** Threads python3 can start in the sandbox (each counts like a process), asking for 300. */
const THREADS = `/usr/bin/python3 -c '
import threading
threading.stack_size(65536)
stop = threading.Event()
n = 0
try:
    for _ in range(300):
        threading.Thread(target=stop.wait).start()
        n += 1
except RuntimeError:
    pass
stop.set()
print("started", n)
'`;

Deno.test({
  name: "a sandboxed command cannot run more processes and threads than the limit",
  ignore: !hasBwrap(),
  async fn() {
    await using t = await testWorkspace();
    const warnings: string[] = [];
    const sandbox = createSandbox({
      enabled: true,
      network: false,
      project: t.project,
      helDir: `${t.project}/.hel`,
      env: { PATH: "/usr/bin:/bin" },
      maxProcesses: 64,
      warn: (text) => warnings.push(text),
    });
    const prepared = await sandbox.prepare("/bin/bash", ["-c", THREADS]);
    assert.ok(prepared.ok, !prepared.ok ? prepared.text : "");
    const outcome = await runCommand({
      program: prepared.program,
      args: prepared.args,
      cwd: t.project,
      env: prepared.env,
      timeoutMs: 30_000,
    });
    assert.equal(outcome.kind, "finished");
    const started = Number(
      (outcome.kind === "finished" ? outcome.stdout : "").match(/started (\d+)/)?.[1],
    );
    if (warnings.length > 0) return; // no mechanism here (warned): nothing to hold
    assert.ok(started > 0 && started < 64, `started ${started} threads`);
  },
});
