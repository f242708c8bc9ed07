import assert from "node:assert/strict";
import { runCommand } from "../../plugins/tools/shell/run_command.ts";
import { bwrapArguments, createSandbox, type SandboxSettings } from "./sandbox.ts";
import { git, hasBwrap, testWorkspace, threadProbe } from "../../plugins/tools/testing.ts";

const settings = {
  enabled: true,
  network: true,
  project: "/w/proj",
  helDir: "/w/proj/.hel",
  env: { PATH: "/usr/bin" },
};

Deno.test("the bubblewrap arguments bind the project writable after the private /tmp", () => {
  const args = bwrapArguments(settings);
  const at = (...words: string[]) => {
    const index = args.findIndex((_, i) => words.every((word, j) => args[i + j] === word));
    assert.notEqual(index, -1, `missing ${words.join(" ")}`);
    return index;
  };
  assert.equal(at("--ro-bind", "/", "/"), 0);
  // Order matters: later mounts cover earlier ones.
  assert.ok(at("--tmpfs", "/tmp") < at("--bind", "/w/proj", "/w/proj"));
  assert.ok(at("--bind", "/w/proj", "/w/proj") < at("--tmpfs", "/w/proj/.hel"));
  assert.ok(at("--tmpfs", "/w/proj/.hel") < at("--remount-ro", "/w/proj/.hel"));
  at("--unshare-all");
  at("--share-net");
  at("--die-with-parent");
  at("--new-session");
  at("--cap-drop", "ALL");
  at("--chdir", "/w/proj");
  assert.ok(!bwrapArguments({ ...settings, network: false }).includes("--share-net"));
  // The folder holding the real resolv.conf stays visible over the private /run.
  const kept = bwrapArguments(settings, ["/run/systemd/resolve"]);
  const run = kept.findIndex((word, i) => word === "--tmpfs" && kept[i + 1] === "/run");
  const resolve = kept.indexOf("/run/systemd/resolve");
  assert.ok(run !== -1 && resolve > run && kept[resolve - 1] === "--ro-bind-try");
});

Deno.test("git metadata is bound read-only over the writable project, before .hel is hidden", () => {
  const args = bwrapArguments(settings, [], ["/w/proj/.git", "/w/proj/sub/.git"]);
  const at = (...words: string[]) =>
    args.findIndex((_, i) => words.every((w, j) => args[i + j] === w));
  const project = at("--bind", "/w/proj", "/w/proj");
  const git = at("--ro-bind-try", "/w/proj/.git", "/w/proj/.git");
  const sub = at("--ro-bind-try", "/w/proj/sub/.git", "/w/proj/sub/.git");
  assert.ok(project !== -1 && project < git && git < sub && sub < at("--tmpfs", "/w/proj/.hel"));
  assert.ok(!bwrapArguments(settings).includes("--ro-bind-try"));
  // The folders holding a nested one are pinned (bound onto themselves) before it, parents first.
  const nested = bwrapArguments(settings, [], ["/w/proj/.git", "/w/proj/a/b/.git", "/w/proj/a/c"]);
  const pins = nested.flatMap((word, i) => word === "--bind-try" ? [nested[i + 1]] : []);
  assert.deepEqual(pins, ["/w/proj/a", "/w/proj/a/b"]);
  assert.ok(nested.indexOf("--bind-try") < nested.indexOf("--ro-bind-try"));
  // So are those holding a $HEL_HOME inside the project: moved away, a fresh one could be made.
  const home = bwrapArguments({ ...settings, helHome: "/w/proj/state/hel-home" });
  assert.deepEqual(home.slice(home.indexOf("--bind-try"), home.indexOf("--bind-try") + 3), [
    "--bind-try",
    "/w/proj/state",
    "/w/proj/state",
  ]);
});

Deno.test("the home folders are covered first, then bound back, and the project last", () => {
  const args = bwrapArguments({ ...settings, project: "/home/u/proj" }, [], [], {
    hidden: ["/home", "/root"],
    readable: ["/home/u/.cargo", "/home/u/go"],
    secrets: ["/home/u/.cargo/credentials.toml"],
    extra: ["/home/u/notes"],
    helHome: "/srv/hel",
  });
  const at = (...words: string[]) => {
    const index = args.findIndex((_, i) => words.every((word, j) => args[i + j] === word));
    assert.notEqual(index, -1, `missing ${words.join(" ")}`);
    return index;
  };
  // Later mounts cover earlier ones: each step must come after the one it punches through.
  const order = [
    at("--tmpfs", "/run"),
    at("--tmpfs", "/home"),
    at("--tmpfs", "/root"),
    at("--ro-bind-try", "/home/u/.cargo", "/home/u/.cargo"),
    at("--ro-bind-try", "/home/u/go", "/home/u/go"),
    at("--ro-bind-try", "/home/u/notes", "/home/u/notes"),
    at("--ro-bind", "/dev/null", "/home/u/.cargo/credentials.toml"),
    at("--tmpfs", "/srv/hel"),
    at("--bind", "/home/u/proj", "/home/u/proj"),
    at("--tmpfs", "/w/proj/.hel"),
    at("--remount-ro", "/home"),
    at("--remount-ro", "/root"),
    at("--remount-ro", "/srv/hel"),
  ];
  assert.deepEqual(order, [...order].sort((a, b) => a - b));
  // The home mounts come only from the view: without one there are none.
  assert.ok(!bwrapArguments(settings).includes("/home"));
});

/** Runs a shell command through the sandbox; returns its exit code and output. */
async function sandboxed(sandboxSettings: SandboxSettings, command: string) {
  const prepared = await createSandbox(sandboxSettings).prepare("/bin/bash", ["-c", command]);
  assert.ok(prepared.ok, !prepared.ok ? prepared.text : "");
  const outcome = await runCommand({
    program: prepared.program,
    args: prepared.args,
    cwd: sandboxSettings.project,
    env: prepared.env,
    timeoutMs: 30_000,
  });
  assert.equal(outcome.kind, "finished");
  return outcome.kind === "finished"
    ? { code: outcome.code, output: outcome.stdout + outcome.stderr }
    : { code: -1, output: "" };
}

/** Every file under `dir` with its contents, to compare before and after. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (at: string) => {
    for await (const entry of Deno.readDir(at)) {
      const path = `${at}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else files[path.slice(dir.length)] = btoa(String.fromCharCode(...await Deno.readFile(path)));
    }
  };
  await walk(dir);
  return files;
}

Deno.test({
  name: "in the sandbox .git and the submodules' .git cannot be changed, and git still reads",
  ignore: !hasBwrap(),
  async fn() {
    await using t = await testWorkspace({ "a.txt": "a\n" });
    await git(t.project, "init", "-q");
    await git(t.project, "add", "a.txt");
    await git(t.project, "commit", "-q", "-m", "first");
    const commit = "0123456789abcdef0123456789abcdef01234567";
    for (const path of ["sub", "empty", "vendor/lib"]) {
      await git(t.project, "update-index", "--add", "--cacheinfo", `160000,${commit},${path}`);
    }
    await Deno.mkdir(`${t.project}/.git/modules/sub`, { recursive: true });
    await t.write("sub/.git", "gitdir: ../.git/modules/sub\n");
    await git(t.project, "init", "-q", "vendor/lib");
    await Deno.mkdir(`${t.project}/empty`);
    await t.write("a.txt", "changed\n");
    const before = await snapshot(`${t.project}/.git`);
    const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: t.root, LANG: "C" };
    const base = { ...settings, project: t.project, helDir: `${t.project}/.hel`, env };
    const attacks = [
      "echo '[core] fsmonitor = touch pwned' >> .git/config",
      "echo 'touch pwned' > .git/hooks/pre-commit",
      "rm -rf .git",
      "mv .git moved",
      "ln .git/config hard",
      "echo 'gitdir: ../planted' > sub/.git",
      "rm sub/.git",
      "mkdir empty/.git",
      "mv sub sub2",
      "mv vendor v2",
      "echo '[core] fsmonitor = touch pwned' >> vendor/lib/.git/config",
      "git config core.fsmonitor 'touch pwned'",
    ];
    for (const attack of attacks) {
      const result = await sandboxed(base, attack);
      assert.notEqual(result.code, 0, `${attack}: ${result.output}`);
      assert.match(result.output, /Read-only file system|Device or resource busy|cross-device/);
    }
    assert.deepEqual(await snapshot(`${t.project}/.git`), before);
    assert.equal(await t.read("sub/.git"), "gitdir: ../.git/modules/sub\n");
    await assert.rejects(Deno.stat(`${t.project}/empty/.git`));
    assert.doesNotMatch(await t.read("vendor/lib/.git/config"), /fsmonitor/);
    const status = await sandboxed(base, "git status --porcelain -- a.txt; git log --format=%s");
    assert.deepEqual(status, { code: 0, output: " M a.txt\nfirst\n" });
    // --allow-git-writes: the project's metadata is writable like the rest.
    const allowed = await sandboxed({ ...base, gitWritable: true }, "git add a.txt");
    assert.deepEqual(allowed, { code: 0, output: "" });
    assert.match(await git(t.project, "status", "--porcelain", "--", "a.txt"), /^M {2}a\.txt$/m);
  },
});

Deno.test("a bubblewrap that cannot start is reported once, with its reason and the fixes", async () => {
  await using t = await testWorkspace();
  const bin = `${t.root}/bin`;
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    `${bin}/bwrap`,
    "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n",
    { mode: 0o755 },
  );
  const warnings: string[] = [];
  const sandbox = createSandbox(
    { ...settings, project: t.project, helDir: `${t.project}/.hel`, env: { PATH: bin } },
    (text) => warnings.push(text),
  );
  for (let i = 0; i < 2; i++) {
    const prepared = await sandbox.prepare("/bin/bash", ["-c", "true"]);
    assert.equal(prepared.ok, false);
    assert.equal(
      !prepared.ok && prepared.text,
      "the command was not run: bubblewrap cannot create a sandbox here (bwrap: setting up " +
        "uid map: Permission denied). Ask the user to allow unprivileged user namespaces for " +
        "bwrap (on Ubuntu: sysctl kernel.apparmor_restrict_unprivileged_userns=0) or " +
        "restart hel with --sandbox off to run commands without a sandbox",
    );
  }
  assert.deepEqual(warnings, [
    "bubblewrap cannot create a sandbox here (bwrap: setting up uid map: Permission denied); " +
    "programs in the sandbox (commands, hooks, MCP servers) will not run. To fix it, allow unprivileged user namespaces " +
    "for bwrap (on Ubuntu: sysctl kernel.apparmor_restrict_unprivileged_userns=0), or start " +
    "hel with --sandbox off to run them without a sandbox",
  ]);
});

Deno.test("with the sandbox off, programs run as they are, with the environment given", async () => {
  const sandbox = createSandbox({ ...settings, enabled: false, env: { PATH: "/x", A: "1" } });
  assert.deepEqual(await sandbox.prepare("/bin/bash", ["-c", "true"]), {
    ok: true,
    program: "/bin/bash",
    args: ["-c", "true"],
    env: { PATH: "/x", A: "1" },
  });
});

Deno.test({
  name: "a sandboxed command cannot run more processes and threads than the limit",
  ignore: !hasBwrap(),
  async fn() {
    await using t = await testWorkspace();
    const warnings: string[] = [];
    const { output } = await sandboxed({
      enabled: true,
      network: false,
      project: t.project,
      helDir: `${t.project}/.hel`,
      env: { PATH: "/usr/bin:/bin" },
      maxProcesses: 64,
      warn: (text) => warnings.push(text),
    }, threadProbe(300));
    const started = Number(output.match(/started (\d+)/)?.[1]);
    if (warnings.length > 0) return; // no mechanism here, and the person is warned
    assert.ok(started > 0 && started < 64, output);
  },
});
