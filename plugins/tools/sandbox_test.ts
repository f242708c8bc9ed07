import assert from "node:assert/strict";
import { bwrapArguments, createSandbox } from "./sandbox.ts";
import { testWorkspace } from "./testing.ts";

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
    "bash, glob and grep will refuse to run. To fix it, allow unprivileged user namespaces " +
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
