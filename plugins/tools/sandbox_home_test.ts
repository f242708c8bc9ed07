import assert from "node:assert/strict";
import { homeView, parseSandboxReads } from "./sandbox_home.ts";
import { testWorkspace } from "./testing.ts";

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
  const view = await homeView({
    env: {
      HOME: home,
      // PATH naming the home folder itself, or the project, must not uncover them.
      PATH: `${home}/bin:${home}:${t.project}/node_modules/.bin:/usr/bin:relative/bin`,
      RUSTUP_HOME: `${home}/rust`,
    },
    project: t.project,
    helHome: `${t.root}/outside`,
    extra: ["/etc/hostname"],
  });
  const hidden = [];
  for (const folder of ["/home", "/root"]) {
    if (await Deno.stat(folder).catch(() => undefined)) hidden.push(folder);
  }
  assert.deepEqual(view, {
    hidden: [...hidden, home],
    readable: [`${home}/.cargo`, `${home}/.config/git`, `${home}/rust`, `${home}/bin`],
    secrets: [`${home}/.cargo/credentials.toml`, `${home}/.config/git/credentials`],
    extra: ["/etc/hostname"],
    helHome: t.outside,
  });
  // Started in the home folder, the project is the home: nothing of it is covered or re-bound.
  const inHome = await homeView({ env: { HOME: home, PATH: `${home}/bin` }, project: home });
  assert.deepEqual([inHome.hidden.includes(home), inHome.readable], [false, []]);
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
