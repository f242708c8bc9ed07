import assert from "node:assert/strict";
import { runCommand } from "../../plugins/tools/shell/run_command.ts";
import { createSandbox } from "./sandbox.ts";
import { homeView, parseSandboxReads, PRIVATE_FOLDERS } from "./home.ts";
import { hasBwrap, testWorkspace } from "../../plugins/tools/testing.ts";

Deno.test("homeView hides the home folders and binds back only toolchains and PATH folders", async () => {
  await using t = await testWorkspace();
  const home = `${t.root}/home`;
  for (
    const path of [
      ".ssh/id_ed25519",
      ".cargo/bin/tool",
      ".cargo/credentials.toml",
      ".config/git/config",
      ".config/git/credentials",
      ".config/gh/hosts.yml",
      "bin/mine",
      "rust/bin/cargo",
    ]
  ) {
    await t.write(`${home}/${path}`, "x");
  }
  const env = {
    HOME: home,
    // PATH naming the home folder itself, or the project, must not uncover them.
    PATH: `${home}/bin:${home}:${t.project}/node_modules/.bin:/usr/bin:relative/bin`,
    RUSTUP_HOME: `${home}/rust`,
  };
  const view = await homeView({
    env,
    project: t.project,
    helHome: `${t.root}/outside`,
    extra: ["/etc/hostname"],
  });
  const hidden = [];
  for (const folder of PRIVATE_FOLDERS) {
    if (await Deno.stat(folder).catch(() => undefined)) hidden.push(folder);
  }
  assert.deepEqual(view, {
    hidden: [...hidden, home],
    readable: [`${home}/.cargo`, `${home}/.config/git`, `${home}/rust`, `${home}/bin`],
    secrets: [`${home}/.cargo/credentials.toml`, `${home}/.config/git/credentials`],
    extra: ["/etc/hostname"],
    helHome: t.outside,
  });
  // A toolchain folder shown on request (a server entry naming ~/.cargo) keeps its
  // credential file covered; naming the file itself shows it.
  const named = await homeView({
    env: { HOME: home },
    project: t.project,
    extra: [`${home}/.cargo`],
  });
  assert.ok(named.secrets.includes(`${home}/.cargo/credentials.toml`), named.secrets.join());
  const file = `${home}/.cargo/credentials.toml`;
  const asked = await homeView({ env: { HOME: home }, project: t.project, extra: [file] });
  assert.ok(!asked.secrets.includes(file), asked.secrets.join());
  // Started in the home folder, the project is the home: nothing of it is covered or re-bound.
  const inHome = await homeView({ env: { HOME: home, PATH: `${home}/bin` }, project: home });
  assert.deepEqual([inHome.hidden.includes(home), inHome.readable], [false, []]);
  // One holding what commands must see is not covered: that would hide the system or the home.
  for (const helHome of ["/", home]) {
    assert.equal((await homeView({ env, project: t.project, helHome })).helHome, undefined);
  }
  // A $HEL_HOME inside the project is left to the project's own rules.
  const inside = await homeView({ env: {}, project: t.project, helHome: `${t.project}/.hel` });
  assert.equal(inside.helHome, undefined);
});

Deno.test("--sandbox-read takes absolute and ~/ paths that exist, and names the fix otherwise", async () => {
  await using t = await testWorkspace();
  assert.deepEqual(parseSandboxReads(undefined, t.root), []);
  assert.deepEqual(parseSandboxReads(["~/outside", `${t.outside}/outside.txt`, "~"], t.root), [
    t.outside,
    `${t.outside}/outside.txt`,
    t.root,
  ]);
  assert.throws(
    () => parseSandboxReads(["~/missing"], t.root),
    new RegExp(`--sandbox-read ~/missing: ${t.root}/missing does not exist; check`),
  );
  assert.throws(() => parseSandboxReads(["outside"], t.root), /outside: a relative path; give/);
  assert.throws(() => parseSandboxReads(["~/outside"], undefined), /HOME is not set, so ~ means/);
});

Deno.test({
  name: "a home folder that is a symlink is hidden where it really is, its toolchains still run",
  ignore: !hasBwrap(),
  async fn() {
    await using t = await testWorkspace();
    const realHome = `${t.outside}/real-home`;
    await t.write(`${realHome}/.ssh/id_ed25519`, "key-9c1e\n");
    await t.write(`${realHome}/.cargo/bin/tool`, "#!/bin/sh\necho tool ran\n");
    await Deno.chmod(`${realHome}/.cargo/bin/tool`, 0o755);
    const home = `${t.outside}/home-link`;
    await Deno.symlink(realHome, home);
    const env = { HOME: home, PATH: `${home}/.cargo/bin:/usr/bin:/bin` };
    // Covered where it is: a link under /home would be gone under /home's cover, its target not.
    const view = await homeView({ env, project: t.project });
    assert.equal(view.hidden.at(-1), realHome);
    assert.deepEqual(view.readable, [`${home}/.cargo`]);
    const prepared = await createSandbox({
      enabled: true,
      network: false,
      project: t.project,
      helDir: `${t.project}/.hel`,
      env,
    }).prepare("/bin/bash", [
      "-c",
      `tool; cat ${realHome}/.ssh/id_ed25519 ~/.ssh/id_ed25519 2>&1 | sed 's/.*: //'`,
    ]);
    assert.ok(prepared.ok, !prepared.ok ? prepared.text : "");
    const outcome = await runCommand({ ...prepared, cwd: t.project, timeoutMs: 30_000 });
    assert.equal(
      outcome.kind === "finished" && outcome.stdout,
      [
        "tool ran",
        "No such file or directory",
        "No such file or directory",
        "",
      ].join("\n"),
    );
  },
});
