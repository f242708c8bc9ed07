/**
 * The command `hel mcp login` opens the authorization page with, as a setting: `mcp.browser` in
 * the person's `$HEL_HOME/settings.jsonc` is used, `HEL_BROWSER` wins over it (and `hel config
 * list` says so), and a project's `.hel/settings.jsonc` may not set it (it would choose a
 * program hel runs as you): refused by every command, naming the file, place and fix, and by
 * `hel config set --project`. Against the SDK OAuth fixture server.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type TempProject, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { FAST } from "../_mcp.ts";
import { BROWSER, oauthServer } from "../_oauth.ts";

const hel = (project: TempProject, env: Record<string, string>, ...args: string[]) =>
  runHelInProcess([...FAST, ...args], { cwd: project.project, env });

Deno.test("mcp.browser in your settings opens the login page; HEL_BROWSER wins; a project may not set it", async () => {
  await using project = await tempProject();
  await using server = await oauthServer(project);
  const helHome = `${project.root}/hel-home`;
  await Deno.writeTextFile(
    `${helHome}/mcp.json`,
    JSON.stringify({ servers: { secure: { url: server.url } } }),
  );
  // A "browser" that only leaves a mark: were it used, the login would never come back.
  const marker = `${project.root}/marker`;
  const settings = (browser: string) =>
    Deno.writeTextFile(`${helHome}/settings.jsonc`, JSON.stringify({ mcp: { browser } }));

  await settings(`touch ${marker}`);
  let result = await hel(project, { HEL_BROWSER: BROWSER }, "mcp", "login", "secure");
  assert.equal(result.code, 0, result.stderr);
  await assert.rejects(Deno.stat(marker), Deno.errors.NotFound, "HEL_BROWSER wins");
  result = await hel(project, { HEL_BROWSER: BROWSER }, "config", "list");
  const row = result.stdout.split("\n").find((line) => line.startsWith("mcp.browser "));
  assert.match(row ?? "", /^mcp\.browser +".*oauth_browser\.ts" +env HEL_BROWSER$/);

  await settings(BROWSER);
  assert.equal((await hel(project, {}, "mcp", "logout", "secure")).code, 0);
  result = await hel(project, {}, "mcp", "login", "secure");
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^Logged in to secure/);
  result = await hel(project, {}, "config", "list");
  assert.match(result.stdout, /^mcp\.browser +".*oauth_browser\.ts" +user \S+settings\.jsonc$/m);

  // A repository's settings file choosing the command: refused, whatever the command.
  await project.write(".hel/settings.jsonc", `{\n  "mcp": {"browser": "touch ${marker}"}\n}\n`);
  for (const args of [["mcp", "login", "secure"], ["mcp", "list"], ["config", "list"]]) {
    result = await hel(project, {}, ...args);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.match(
      result.stderr,
      /\.hel\/settings\.jsonc:2:11: mcp\.browser may be set only in your own settings file \(\$HEL_HOME\/settings\.jsonc\), not in a project's: .*remove it from this file/,
    );
  }
  await assert.rejects(Deno.stat(marker), Deno.errors.NotFound);
  await Deno.remove(`${project.project}/.hel/settings.jsonc`);
  result = await hel(project, {}, "config", "set", "--project", "mcp.browser", "firefox");
  assert.equal(result.code, 2);
  assert.match(result.stderr, /mcp\.browser may be set only in your own settings file/);
  await assert.rejects(Deno.stat(`${project.project}/.hel/settings.jsonc`), Deno.errors.NotFound);
});
