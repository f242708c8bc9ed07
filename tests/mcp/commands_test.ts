/**
 * `hel mcp add`, `get`, `remove` and `list` through the real command line: entries written into
 * the person's `$HEL_HOME/mcp.json` or the project's `.hel/mcp.json` with their comments kept,
 * the project's file asked about again after a change, and bad input refused with the field and
 * the fix before anything is written.
 *
 * @module
 */
import assert from "node:assert/strict";
import { parse } from "jsonc-parser";
import { type TempProject, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { FAST, TEST_SERVER, trustMcp } from "../_mcp.ts";

const hel = (project: TempProject, args: string[]) =>
  runHelInProcess(args, { cwd: project.project });
const userFile = (project: TempProject) => `${project.root}/hel-home/mcp.json`;
// deno-lint-ignore no-explicit-any
const servers = (text: string): Record<string, any> => parse(text).servers;

const USER_FILE = `// my own MCP servers
{
  "servers": {
    // the notes server I use everywhere
    "notes": { "command": "notes-mcp" }, // keep this one
  },
}
`;

Deno.test("hel mcp add, get and remove round trip in your own file, keeping its comments", async () => {
  await using project = await tempProject();
  await Deno.writeTextFile(userFile(project), USER_FILE);

  // Options between the name and --, and hel's own flag names in the server's command line,
  // which stay the server's.
  let result = await hel(project, [
    "mcp",
    "add",
    "t",
    "--env",
    "LOG_LEVEL=warn",
    "--timeout",
    "20",
    "--",
    "python3",
    TEST_SERVER,
    "--timeout",
    "9",
    "--model",
    "m",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stdout,
    `Added MCP server t in ${userFile(project)}.\n` +
      "It is your own file: every project's runs start t, without a trust question (a " +
      "project's .hel/mcp.json entry of the same name wins). Check it with: hel mcp list\n",
  );
  let text = await Deno.readTextFile(userFile(project));
  assert.match(text, /^\/\/ my own MCP servers\n/);
  assert.match(text, /\n {4}\/\/ the notes server I use everywhere\n {4}"notes": /);
  assert.ok(text.includes("// keep this one"), text);
  assert.deepEqual(servers(text).notes, { command: "notes-mcp" });
  assert.deepEqual(servers(text).t, {
    command: "python3",
    args: [TEST_SERVER, "--timeout", "9", "--model", "m"],
    env: { LOG_LEVEL: "warn" },
    timeout: 20,
  });

  result = await hel(project, ["mcp", "get", "t"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stdout,
    `t: from ${userFile(project)} (your own file: no trust question)\n` +
      `  command: python3 ${TEST_SERVER} --timeout 9 --model m\n` +
      "  environment: LOG_LEVEL (besides the base)\n" +
      "  call timeout: 20 s (up to 200 s while it reports progress)\n" +
      "  tools: all\n" +
      "  log level: warning (the default)\n" +
      "  sandbox: on (unless hel runs with --sandbox off)\n",
  );

  // A name that exists is refused, and the file is left as it was; --replace replaces it.
  const before = await Deno.readTextFile(userFile(project));
  result = await hel(project, ["mcp", "add", "t", "--", "other"]);
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    `hel mcp: ${userFile(project)} already has an MCP server t; add --replace to replace its ` +
      "entry, or pick another name (hel mcp get t shows it)\n",
  );
  assert.equal(await Deno.readTextFile(userFile(project)), before);
  result = await hel(project, ["mcp", "add", "t", "--replace", "--", "other", "--flag"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^Replaced MCP server t in /);
  assert.deepEqual(servers(await Deno.readTextFile(userFile(project))).t, {
    command: "other",
    args: ["--flag"],
  });

  result = await hel(project, ["mcp", "remove", "t"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, `Removed MCP server t from ${userFile(project)}.\n`);
  text = await Deno.readTextFile(userFile(project));
  assert.deepEqual(Object.keys(servers(text)), ["notes"]);
  for (const comment of ["// my own MCP servers", "// the notes server", "// keep this one"]) {
    assert.ok(text.includes(comment), text);
  }

  result = await hel(project, ["mcp", "remove", "t"]);
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    `hel mcp: no MCP server t in ${userFile(project)} or .hel/mcp.json; hel mcp list shows ` +
      "the servers\n",
  );
  result = await hel(project, ["mcp", "get", "note"]);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /no MCP server note in .*\(did you mean "notes"\?\)/);
});

Deno.test("adding to the project's file keeps its comments and makes the next run ask again", async () => {
  await using project = await tempProject();
  await project.write(
    ".hel/mcp.json",
    '{\n  // shared with the team\n  "servers": {\n    "a": { "command": "a-mcp" },\n  },\n}\n',
  );
  await trustMcp(project);
  let result = await hel(project, ["mcp", "list"]);
  assert.match(result.stdout, /^\.hel\/mcp\.json: trusted \(sha256 [0-9a-f]{64}\)$/m);

  result = await hel(project, [
    "mcp",
    "add",
    "--scope",
    "project",
    "--env",
    "API_TOKEN=s3cret",
    "b",
    "--",
    "b-mcp",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stdout,
    "Added MCP server b in .hel/mcp.json.\n" +
      ".hel/mcp.json changed, so the next run asks you to trust it again (as for any change); " +
      "review it now with: hel trust mcp\n" +
      "Note: the value of API_TOKEN is now written in .hel/mcp.json, which is part of the " +
      "project; to pass your own variable instead, use --env 'API_TOKEN=${API_TOKEN}' (add " +
      "--replace), or --scope user for your own file\n",
  );
  const text = await project.read(".hel/mcp.json");
  assert.match(text, /^\{\n {2}\/\/ shared with the team\n/);
  assert.deepEqual(servers(text), {
    a: { command: "a-mcp" },
    b: { command: "b-mcp", env: { API_TOKEN: "s3cret" } },
  });
  await assert.rejects(Deno.stat(userFile(project)), Deno.errors.NotFound);

  // The changed bytes are not the trusted ones: nothing of the project's starts.
  result = await hel(project, ["mcp", "list"]);
  assert.equal(result.code, 1);
  assert.match(result.stdout, /^\.hel\/mcp\.json \(sha256 [0-9a-f]{64}\) is not trusted/m);
  assert.match(result.stdout, /^b: untrusted \(b-mcp\)$/m);
  result = await hel(project, ["mcp", "get", "b"]);
  assert.match(result.stdout, /^b: from \.hel\/mcp\.json \(the project's file: not trusted, /);

  result = await hel(project, ["mcp", "remove", "b", "--scope", "project"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^Removed MCP server b from \.hel\/mcp\.json\.\n.*trust it again/);
  assert.deepEqual(Object.keys(servers(await project.read(".hel/mcp.json"))), ["a"]);
});

Deno.test("bad input is refused with the field and the fix, and nothing is written", async () => {
  await using project = await tempProject();
  const refused = async (args: string[], stderr: string | RegExp) => {
    const result = await hel(project, ["mcp", ...args]);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    if (typeof stderr === "string") assert.equal(result.stderr, stderr);
    else assert.match(result.stderr, stderr);
  };
  await refused(
    ["add", "a b", "--env", "1X=2", "--env", "T=$T", "--timeout", "soon", "--", "x"],
    "hel mcp: MCP server a b was not added:\n" +
      `  invalid MCP server name "a b": use letters, digits, '-' and single '_' (no "__", no ` +
      `'_' first or last, no spaces or dots), e.g. "notes" or "issue-tracker"\n` +
      '  --env: "1X" is not a valid variable name\n' +
      '  --env T is "$T", but hel expands only a whole value "${NAME}" (or "${NAME:-default}"), ' +
      "which passes hel's variable NAME on; write that, or the value itself\n" +
      "  --timeout must be a positive number of seconds (at most 86400), e.g. 120; leave it out " +
      "for the default of 300\n",
  );
  await refused(
    ["add", "a", "--env", "NOVALUE", "--", "x"],
    "hel mcp: --env NOVALUE: write NAME=VALUE, e.g. --env LOG_LEVEL=warn or --env " +
      "'TOKEN=${TOKEN}'\n",
  );
  await refused(["add", "a", "python3", "-m", "server"], /^hel mcp add: put -- between the name/);
  await refused(["add", "a", "--"], /^hel mcp: the server's command is missing: write it after --/);
  await refused(
    ["add", "--scope", "team", "a", "--", "x"],
    /'team' is invalid\. Allowed choices are user, project/,
  );
  await refused(["get", "a", "--", "x"], /^hel mcp: only hel mcp add takes -- COMMAND/);
  await refused(["lst"], /^hel mcp: unknown command 'lst'\n\(Did you mean list\?\)/);
  await refused(
    ["list", "--sandbox", "off"],
    /unknown option '--sandbox' \(hel's own flags go before mcp, e.g\. hel --sandbox off mcp list\)/,
  );
  await refused(
    ["--mcp-startup-timeout", "5000ms", "list"],
    /unknown option '--mcp-startup-timeout'/,
  );
  await assert.rejects(Deno.stat(userFile(project)), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(`${project.project}/.hel`), Deno.errors.NotFound);
});

Deno.test("a file with mistakes is not added to; they are named with line and column", async () => {
  await using project = await tempProject();
  const broken = '{\n  "servers": {\n    "a": { "comand": "x" }\n  }\n}\n';
  await Deno.writeTextFile(userFile(project), broken);
  const result = await hel(project, ["mcp", "add", "b", "--", "y"]);
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    `hel mcp: ${userFile(project)} has mistakes, and a file with any mistake starts no server, ` +
      "so nothing was written; fix them first:\n" +
      `  ${userFile(project)}:3:12: unknown field servers."a".comand (did you mean "command"?); ` +
      "allowed: command, args, env, timeout, tools, sandbox, logLevel, trustAnnotations, maxMessageBytes, url, " +
      "transport, headers, bearerTokenEnv, oauth\n" +
      `  ${userFile(project)}:3:10: servers."a" needs a "command" (a program hel starts), e.g. ` +
      '"command": "python3", or a "url" (a remote server), e.g. "url": "https://mcp.example.com/mcp"\n',
  );
  assert.equal(await Deno.readTextFile(userFile(project)), broken);
  // The broken entry itself can still be removed.
  const removed = await hel(project, ["mcp", "remove", "a"]);
  assert.equal(removed.code, 0, removed.stderr);
  assert.deepEqual(servers(await Deno.readTextFile(userFile(project))), {});
});

Deno.test("hel mcp add never writes through a planted link", async () => {
  await using project = await tempProject();
  const outside = `${project.root}/outside.json`;
  await Deno.writeTextFile(outside, '{"servers": {}}\n');
  await Deno.mkdir(`${project.project}/.hel`);
  await Deno.symlink(outside, `${project.project}/.hel/mcp.json`);
  const result = await hel(project, ["mcp", "add", "--scope", "project", "a", "--", "x"]);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^hel mcp: .*\.hel\/mcp\.json must be a regular file, not a symlink/);
  assert.equal(await Deno.readTextFile(outside), '{"servers": {}}\n');
});

Deno.test("hel mcp alone is hel mcp list", async () => {
  await using project = await tempProject();
  await Deno.writeTextFile(
    userFile(project),
    JSON.stringify({ servers: { t: { command: "python3", args: [TEST_SERVER] } } }),
  );
  const alone = await runHelInProcess([...FAST, "mcp"], { cwd: project.project });
  const list = await runHelInProcess([...FAST, "mcp", "list"], { cwd: project.project });
  assert.equal(alone.code, 0, alone.stderr);
  assert.equal(alone.stdout, list.stdout);
  assert.match(alone.stdout, /^t: connected, 12 tools, 1 excluded, call timeout 300 s/m);
  assert.match(alone.stdout, new RegExp(`^ {2}from: ${userFile(project)}$`, "m"));
  // The startup time is in seconds, like every other timeout.
  const ms = await runHelInProcess(["--mcp-startup-timeout", "5000ms", "mcp"], {
    cwd: project.project,
  });
  assert.equal(ms.code, 2);
  assert.match(
    ms.stderr,
    /^hel: --mcp-startup-timeout: expected a positive number of seconds, e\.g\. 60, got "5000ms"$/m,
  );
});

Deno.test("a .hel folder hel creates keeps its own state out of git, but not the settings and mcp.json people share", async () => {
  await using project = await tempProject();
  const git = (...args: string[]) =>
    new Deno.Command("git", { args, cwd: project.project, stdout: "piped", stderr: "null" })
      .outputSync();
  git("init", "-q");
  // Whichever command makes .hel first, the same ignore file: here `hel config set --project`.
  const set = await hel(project, ["config", "set", "--project", "maxTurns", "9"]);
  assert.equal(set.code, 0, set.stderr);
  const result = await hel(project, ["mcp", "add", "--scope", "project", "a", "--", "x"]);
  assert.equal(result.code, 0, result.stderr);
  await project.write(".hel/sessions/s1/journal.jsonl", "{}\n");
  await project.write(".hel/history.jsonl", "{}\n");
  await project.write(".hel/.settings.jsonc.lock", "");
  const status = new TextDecoder().decode(
    git("status", "--porcelain", "--untracked-files=all").stdout,
  );
  assert.equal(status, "?? .hel/.gitignore\n?? .hel/mcp.json\n?? .hel/settings.jsonc\n");
});

Deno.test("hel mcp add --transport http|sse writes a remote entry; header values stay out of the file", async () => {
  await using project = await tempProject();
  const url = "https://mcp.example.com/mcp";
  let result = await hel(project, [
    "mcp",
    "add",
    "--transport",
    "http",
    "gh",
    url,
    "--bearer-token-env",
    "GITHUB_TOKEN",
    "--header-env",
    "X-Team=TEAM_ID",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, new RegExp(`^Added MCP server gh in ${userFile(project)}\\.`));
  result = await hel(project, [
    "mcp",
    "add",
    "--transport",
    "sse",
    "--scope",
    "project",
    "old",
    url,
  ]);
  assert.equal(result.code, 0, result.stderr);

  const user = servers(await Deno.readTextFile(userFile(project)));
  assert.deepEqual(user.gh, {
    url,
    bearerTokenEnv: "GITHUB_TOKEN",
    headers: { "X-Team": { env: "TEAM_ID" } },
  });
  const shared = servers(await Deno.readTextFile(`${project.project}/.hel/mcp.json`));
  assert.deepEqual(shared.old, { url, transport: "sse" });

  // What get shows: the address and the variable names, nothing started, no value.
  const got = await hel(project, ["mcp", "get", "gh"]);
  assert.equal(got.code, 0, got.stderr);
  assert.match(got.stdout, new RegExp(`^ {2}url: ${url.replaceAll(".", "\\.")}$`, "m"));
  assert.match(got.stdout, /Authorization \(bearer, from GITHUB_TOKEN\)/);
  assert.match(got.stdout, /X-Team \(from TEAM_ID\)/);

  // A remote entry takes no command, and a command entry no URL.
  const both = await hel(project, ["mcp", "add", "--transport", "http", "x", url, "--", "cmd"]);
  assert.equal(both.code, 2);
  assert.ok(!servers(await Deno.readTextFile(userFile(project))).x);
});
