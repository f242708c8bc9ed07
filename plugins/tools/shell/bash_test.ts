import assert from "node:assert/strict";
import type { ToolResult } from "../../../core/mod.ts";
import { bashTool } from "./bash.ts";
import { createSandbox } from "../../../kit/mod.ts";
import { call, git, hasBwrap, testWorkspace } from "../testing.ts";

const sandboxed = hasBwrap();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function setup(options: { sandbox: boolean; network?: boolean; timeoutSeconds?: number }) {
  const t = await testWorkspace();
  const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: t.root, LANG: "C.UTF-8" };
  const sandbox = createSandbox({
    enabled: options.sandbox,
    network: options.network ?? true,
    project: t.project,
    helDir: `${t.project}/.hel`,
    env,
  });
  const tool = bashTool({
    sandbox,
    project: t.project,
    timeoutSeconds: options.timeoutSeconds ?? 60,
    sandboxed: options.sandbox,
    network: options.network ?? true,
  });
  return Object.assign(t, {
    run: (command: string) => call(tool, { command }),
    tool,
    description: tool.description,
  });
}

for (const sandbox of [true, false]) {
  const label = sandbox ? "in the sandbox" : "with --sandbox off";
  const ignore = sandbox && !sandboxed;

  Deno.test({
    name: `bash ${label}: exit code first, then stdout, then stderr`,
    ignore,
    async fn() {
      await using t = await setup({ sandbox });
      assert.deepEqual(await t.run("echo hi"), { ok: true, text: "exit=0\nhi\n" });
      assert.deepEqual(await t.run("echo out; echo err >&2; exit 3"), {
        ok: false,
        text: "exit=3\nout\nerr\n",
      });
    },
  });

  Deno.test({
    name: `bash ${label}: output reaches the person while the command runs`,
    ignore,
    async fn() {
      await using t = await setup({ sandbox });
      const heard: string[] = [];
      let ended = false;
      const running = t.tool.run({ command: "echo one; sleep 1; echo two >&2" }, {
        callId: "call_live",
        signal: new AbortController().signal,
        onOutput: (text) => heard.push(ended ? `late: ${text}` : text),
      }).finally(() => ended = true);
      const deadline = Date.now() + 5_000;
      while (heard.length === 0 && Date.now() < deadline) await pause(20);
      assert.equal(ended, false, "the command was still running");
      assert.deepEqual(heard, ["one\n"]);
      // What the model reads is the captured result, as without a watcher.
      assert.deepEqual(await running, { ok: true, text: "exit=0\none\ntwo\n" });
      assert.deepEqual(heard, ["one\n", "two\n"]);
    },
  });

  Deno.test({
    name: `bash ${label}: stdin is empty and every call is a fresh shell`,
    ignore,
    async fn() {
      await using t = await setup({ sandbox });
      assert.deepEqual(await t.run("cat; read line; echo done"), {
        ok: true,
        text: "exit=0\ndone\n",
      });
      assert.equal((await t.run("cd /; export X=1")).ok, true);
      assert.deepEqual(await t.run('pwd; echo "X=$X"'), {
        ok: true,
        text: `exit=0\n${t.project}\nX=\n`,
      });
    },
  });

  Deno.test({
    name: `bash ${label}: the time limit kills the command's whole process group`,
    ignore,
    async fn() {
      await using t = await setup({ sandbox, timeoutSeconds: 1 });
      const marker = `hel-timeout-${crypto.randomUUID()}`;
      const result: ToolResult = await t.run(
        `echo started; bash -c 'exec -a ${marker} sleep 300' & sleep 300`,
      );
      assert.equal(result.ok, false);
      assert.equal(
        result.text,
        "exit=killed\nstarted\n\n[The command was still running after 1 second, so it was " +
          "stopped and every process it started was killed. Split the work into shorter " +
          "commands, or limit what it processes.]",
      );
      const left = new Deno.Command("pgrep", { args: ["-f", marker] }).outputSync();
      assert.equal(new TextDecoder().decode(left.stdout), "", "a background process survived");
    },
  });
}

Deno.test({
  name: "bash in the sandbox cannot see .hel, change it, or write outside the workspace",
  ignore: !sandboxed,
  async fn() {
    await using t = await setup({ sandbox: true });
    const tmpName = `hel-private-${crypto.randomUUID()}`;
    const result = await t.run(
      [
        "cat .hel/secret.txt",
        "ls -A .hel; echo listed",
        "echo x > .hel/hooks.json",
        "mkdir .hel/sessions2",
        "umount .hel",
        "echo pwned > ../outside/outside.txt",
        "echo pwned > ../outside/new.txt",
        "touch /etc/hel-sandbox-test",
        `echo pwned > /var/tmp/${tmpName}`,
        `echo private > /tmp/${tmpName} && cat /tmp/${tmpName}`,
        "echo kept > inside.txt",
        "grep -r canary . ; echo grep=$?",
      ].join("; "),
    );
    assert.ok(!result.text.includes("canary-secret"), result.text);
    assert.match(result.text, /\.hel\/secret\.txt: No such file or directory/);
    assert.match(result.text, /^listed$/m);
    assert.match(result.text, /\.hel\/hooks\.json: Read-only file system/);
    // The test project lives under /tmp, which is private inside: its neighbours are not there.
    assert.match(result.text, /outside\.txt: (Read-only file system|No such file or directory)/);
    assert.match(result.text, /new\.txt: (Read-only file system|No such file or directory)/);
    assert.match(result.text, /\/var\/tmp\/hel-private-[0-9a-f-]+: Read-only file system/);
    assert.match(result.text, /^private$/m);
    assert.match(result.text, /^grep=1$/m);
    assert.equal(await t.read("inside.txt"), "kept\n");
    assert.equal(await t.read(".hel/secret.txt"), "canary-secret\n");
    assert.deepEqual([...Deno.readDirSync(`${t.project}/.hel`)].map((e) => e.name).sort(), [
      "secret.txt",
      "sessions",
    ]);
    assert.equal(await Deno.readTextFile(`${t.outside}/outside.txt`), "outside-data\n");
    assert.deepEqual([...Deno.readDirSync(t.outside)].map((e) => e.name), ["outside.txt"]);
    await assert.rejects(Deno.stat("/etc/hel-sandbox-test"));
    await assert.rejects(Deno.stat(`/tmp/${tmpName}`));
    await assert.rejects(Deno.stat(`/var/tmp/${tmpName}`));
  },
});

Deno.test({
  name: "bash in the sandbox reaches the network only when --sandbox-network is on",
  ignore: !sandboxed,
  async fn() {
    const server = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const accepting = (async () => {
      for await (const conn of server) conn.close();
    })();
    const port = server.addr.port;
    const probe =
      `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo connected || echo refused`;
    try {
      await using on = await setup({ sandbox: true, network: true });
      assert.deepEqual(await on.run(probe), { ok: true, text: "exit=0\nconnected\n" });
      assert.doesNotMatch(on.description, /no network/);
      await using off = await setup({ sandbox: true, network: false });
      assert.deepEqual(await off.run(probe), { ok: true, text: "exit=0\nrefused\n" });
      // Told up front, the model asks the user instead of retrying downloads.
      assert.match(off.description, /- There is no network access: downloads and package/);
    } finally {
      server.close();
      await accepting.catch(() => {});
    }
  },
});

Deno.test("bash refuses to run without bubblewrap and says how to fix it", async () => {
  await using t = await testWorkspace();
  const tool = bashTool({
    sandbox: createSandbox({
      enabled: true,
      network: true,
      project: t.project,
      helDir: `${t.project}/.hel`,
      env: { PATH: `${t.root}/empty-bin` },
    }),
    project: t.project,
    timeoutSeconds: 5,
    sandboxed: true,
  });
  const marker = `${t.project}/ran.txt`;
  const result = await call(tool, { command: `touch ${marker}` });
  assert.equal(result.ok, false);
  assert.match(result.text, /^the command was not run: /);
  assert.match(result.text, /install the bubblewrap package \(apt install bubblewrap/);
  assert.match(result.text, /--sandbox off/);
  await assert.rejects(Deno.stat(marker));
});

Deno.test("bash checks its arguments and tells the model its time limit", async () => {
  await using t = await setup({ sandbox: false, timeoutSeconds: 600 });
  const tool = bashTool({
    sandbox: createSandbox({
      enabled: false,
      network: true,
      project: t.project,
      helDir: "",
      env: {},
    }),
    project: t.project,
    timeoutSeconds: 600,
    sandboxed: false,
  });
  assert.deepEqual(await call(tool, {}), { ok: false, text: "command is required but missing" });
  assert.deepEqual(await call(tool, { command: ["ls"] }), {
    ok: false,
    text: "command must be a string, not array",
  });
  assert.match(tool.description, /Time limit per command: 10 minutes\.\n$/);
  assert.doesNotMatch(tool.description, /sandbox/);
});

Deno.test("bash shows the person its command and folder, and offers a rule for a simple one", async () => {
  await using t = await setup({ sandbox: false });
  assert.deepEqual(await t.tool.describeCall!({ command: "npm test -- --watch" }), {
    preview: { kind: "command", command: "npm test -- --watch", cwd: t.project },
    scope: { kind: "command", tool: "bash", prefix: "npm test" },
  });
  assert.deepEqual(await t.tool.describeCall!({ command: "npm test && rm -rf ~" }), {
    preview: { kind: "command", command: "npm test && rm -rf ~", cwd: t.project },
    scope: undefined,
  });
});

Deno.test({
  name:
    "bash: a .git a command creates is reported once, with its settings, and is read-only from then on",
  ignore: !sandboxed,
  async fn() {
    await using t = await testWorkspace();
    const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: t.root, LANG: "C" };
    const sandbox = createSandbox({
      enabled: true,
      network: true,
      project: t.project,
      helDir: `${t.project}/.hel`,
      env,
    });
    const tool = bashTool({
      sandbox,
      project: t.project,
      timeoutSeconds: 60,
      sandboxed: true,
      gitReadOnly: true,
    });
    assert.match(tool.description, /- The \.git folder is read-only: git commands that read/);
    const run = (command: string) => call(tool, { command });
    assert.deepEqual(await run("echo no-repo"), { ok: true, text: "exit=0\nno-repo\n" });
    assert.deepEqual(sandbox.gitChanges(), []);
    // Where there was no .git, the creating command itself can write it: hel can only tell.
    assert.deepEqual(await run("git init -q && git config core.fsmonitor 'touch pwned'"), {
      ok: true,
      text: "exit=0\n\n[This command created or changed git repositories, where git runs the " +
        "programs their settings name when the user (or a shell prompt) runs git there:\n" +
        "- .git, created: settings that run programs: core.fsmonitor = touch pwned\n" +
        "From the next command on their settings are read-only, so git commands that change " +
        "them (git config, adding hooks) will fail. The user is told about them at the end of " +
        "the run.]",
    });
    assert.equal(sandbox.gitChanges().length, 1);
    const next = await run("git config core.fsmonitor 'touch pwned-again'");
    assert.equal(next.ok, false);
    assert.match(next.text, /could not lock config file .*Read-only file system/);
    assert.equal((await run("git status --short")).ok, true);
    assert.equal(sandbox.gitChanges().length, 1);
    assert.match(await git(t.project, "config", "core.fsmonitor"), /^touch pwned\n$/);
  },
});
