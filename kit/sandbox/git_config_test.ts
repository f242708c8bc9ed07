import assert from "node:assert/strict";
import { findSystemProgram } from "../process/group.ts";
import { parseConfig, parseConfigList, runsProgram } from "./git_config.ts";

Deno.test("settings that run programs are told apart from the rest", () => {
  const runs = (key: string, value?: string) => runsProgram({ key, value });
  for (
    const key of [
      "core.fsmonitor",
      "core.hookspath",
      "core.sshcommand",
      "core.pager",
      "core.editor",
      "filter.Evil.clean",
      "filter.lfs.process",
      "diff.Pic.textconv",
      "credential.https://x.invalid.helper",
      "include.path",
      "includeIf.gitdir:~/work/.path",
      "hook.lint.command",
      "pager.log",
    ]
  ) assert.ok(runs(key, "touch pwned"), key);
  for (const key of ["user.name", "core.bare", "remote.origin.url", "filter.x.required"]) {
    assert.ok(!runs(key, "touch pwned"), key);
  }
  // Yes/no means git's own daemon or pager setting, not a program.
  assert.ok(!runs("core.fsmonitor", "true"));
  assert.ok(!runs("pager.log", "false"));
  // Aliases and submodule updates run a program only as `!command`.
  assert.ok(runs("alias.st", "!sh -c 'touch pwned'"));
  assert.ok(!runs("alias.st", "status"));
  assert.ok(runs("submodule.lib.update", "!touch pwned"));
  assert.ok(!runs("submodule.lib.update", "rebase"));
});

Deno.test("git's list output is split into keys and values", () => {
  assert.deepEqual(parseConfigList("core.bare\0core.fsmonitor\ntouch a\nb\0"), [
    { key: "core.bare", value: undefined },
    { key: "core.fsmonitor", value: "touch a\nb" },
  ]);
});

const git = findSystemProgram("git");

Deno.test({
  name: "git parses the file, so no spelling it accepts hides a setting",
  ignore: !git,
  async fn() {
    const text = '[CORE]FsMonitor = "touch \\\n pwned" ; comment\n[Filter "Ev"]\n\tclean=x\n' +
      "[include]\npath = ../shared.cfg\n";
    assert.deepEqual(await parseConfig(git!, text), {
      ok: true,
      entries: [
        { key: "core.fsmonitor", value: "touch  pwned" },
        { key: "filter.Ev.clean", value: "x" },
        { key: "include.path", value: "../shared.cfg" },
      ],
    });
    assert.deepEqual(await parseConfig(git!, "[core\n"), {
      ok: false,
      reason: "fatal: bad config line 1",
    });
  },
});
