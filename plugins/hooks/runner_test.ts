import assert from "node:assert/strict";
import {
  CAPTURE_LIMIT_BYTES,
  type CommandSpec,
  createCommandRunner,
  INTERRUPTED,
} from "./runner.ts";

async function withDir(test: (dir: string) => Promise<void>) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-hook-runner-" }));
  try {
    await test(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function spec(dir: string, command: string, extra: Partial<CommandSpec> = {}): CommandSpec {
  return {
    program: "/bin/sh",
    args: ["-c", command],
    cwd: dir,
    env: { PATH: Deno.env.get("PATH") ?? "" },
    stdin: "",
    ...extra,
    timeoutSeconds: extra.timeoutSeconds ?? 30,
  };
}

/** True while `pid` is a live process (a zombie waiting to be reaped counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Waits (briefly) for a killed process to finish dying; true when it is gone. */
async function ends(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && alive(pid); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !alive(pid);
}

Deno.test("the command gets stdin, runs in the project with the given env, output is captured", async () => {
  await withDir(async (dir) => {
    const runner = createCommandRunner();
    const result = await runner.run(spec(
      dir,
      'cat; printf "%s|%s" "$PWD" "${SECRET-unset}"; echo oops >&2; exit 3',
      { stdin: '{"tool_name":"x"}\n', env: { PATH: Deno.env.get("PATH") ?? "" } },
    ));
    assert.equal(result.code, 3);
    assert.equal(result.signal, null);
    assert.equal(result.stdout, `{"tool_name":"x"}\n${dir}|unset`);
    assert.equal(result.stderr, "oops\n");
    assert.equal(result.failure, undefined);
  });
});

Deno.test("the command leads its own process group", async () => {
  await withDir(async (dir) => {
    const runner = createCommandRunner();
    const result = await runner.run(spec(dir, "ps -o pid=,pgid= -p $$"));
    const [pid, pgid] = result.stdout.trim().split(/\s+/);
    assert.equal(pid, pgid);
    assert.notEqual(Number(pgid), Deno.pid);
  });
});

Deno.test("a timeout kills the whole group, background children too", async () => {
  await withDir(async (dir) => {
    const runner = createCommandRunner();
    const result = await runner.run(
      spec(dir, "sleep 300 & echo $! > child.pid; trap '' TERM; sleep 300", { timeoutSeconds: 1 }),
    );
    assert.equal(result.code, null);
    assert.equal(result.failure, "timed out after 1 second");
    const child = Number(await Deno.readTextFile(`${dir}/child.pid`));
    assert.equal(await ends(child), true);
  });
});

Deno.test("a finished hook's leftover background job is stopped and does not hold hel", async () => {
  await withDir(async (dir) => {
    const runner = createCommandRunner();
    // The job keeps stdout open; without stopping the group this would wait for it.
    const result = await runner.run(spec(dir, "sleep 300 & echo $! > child.pid; echo done"));
    assert.equal(result.code, 0);
    assert.equal(result.stdout, "done\n");
    const child = Number(await Deno.readTextFile(`${dir}/child.pid`));
    assert.equal(await ends(child), true);
  });
});

Deno.test("output beyond 1 MiB stops the command with a capture-limit failure", async () => {
  await withDir(async (dir) => {
    const runner = createCommandRunner();
    const out = await runner.run(spec(dir, "yes | head -c 3000000; sleep 300"));
    assert.equal(out.failure, "its stdout exceeded the 1 MiB capture limit");
    assert.equal(new TextEncoder().encode(out.stdout).length, CAPTURE_LIMIT_BYTES);
    const err = await runner.run(spec(dir, "yes >&2"));
    assert.equal(err.failure, "its stderr exceeded the 1 MiB capture limit");
    const exact = await runner.run(spec(dir, `head -c ${CAPTURE_LIMIT_BYTES} /dev/zero`));
    assert.equal(exact.failure, undefined, "exactly 1 MiB is within the limit");
    assert.equal(exact.code, 0);
  });
});

Deno.test("a hook that ignores a large stdin payload still finishes", async () => {
  await withDir(async (dir) => {
    const runner = createCommandRunner();
    const result = await runner.run(spec(dir, "exit 0", { stdin: "x".repeat(5_000_000) }));
    assert.equal(result.code, 0);
  });
});

Deno.test("a signal is reported as such", async () => {
  await withDir(async (dir) => {
    const runner = createCommandRunner();
    const result = await runner.run(spec(dir, "kill -SEGV $$"));
    assert.equal(result.code, null);
    assert.equal(result.signal, "SIGSEGV");
  });
});

Deno.test("a missing working directory is a failure, not a throw", async () => {
  await withDir(async (dir) => {
    const runner = createCommandRunner();
    const result = await runner.run(spec(`${dir}/missing`, "true"));
    assert.match(result.failure ?? "", /could not start \/bin\/sh/);
  });
});

Deno.test("stopAll ends running commands", async () => {
  await withDir(async (dir) => {
    const runner = createCommandRunner();
    const running = runner.run(spec(dir, "echo $$ > pid; sleep 300"));
    for (let i = 0; i < 200; i++) {
      if ((await Deno.readTextFile(`${dir}/pid`).catch(() => "")).endsWith("\n")) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    runner.stopAll();
    const result = await running;
    assert.equal(result.signal, "SIGKILL");
  });
});

Deno.test("aborting stops the command's group; an aborted signal starts nothing", async () => {
  await withDir(async (dir) => {
    const runner = createCommandRunner();
    const controller = new AbortController();
    const running = runner.run(
      spec(dir, "sleep 300 & echo $! > child.pid; sleep 300", { signal: controller.signal }),
    );
    for (let i = 0; i < 200; i++) {
      if ((await Deno.readTextFile(`${dir}/child.pid`).catch(() => "")).endsWith("\n")) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    controller.abort();
    const result = await running;
    assert.equal(result.failure, INTERRUPTED);
    assert.equal(await ends(Number(await Deno.readTextFile(`${dir}/child.pid`))), true);

    const again = await runner.run(spec(dir, "touch started", { signal: controller.signal }));
    assert.equal(again.failure, INTERRUPTED);
    assert.equal(await Deno.lstat(`${dir}/started`).then(() => true, () => false), false);
  });
});
