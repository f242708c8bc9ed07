/**
 * What a newcomer reads: the help of hel's subcommands and the flags the README shows. Each
 * runs the real `main.ts` as a subprocess.
 */
import assert from "node:assert/strict";
import { REPO_ROOT, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

Deno.test("hel mcp --help shows the plugin command's usage and exits 0", async () => {
  await using project = await tempProject();
  for (const flag of ["--help", "-h"]) {
    const result = await runHelInProcess(["mcp", flag], { cwd: project.project });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout,
      "Usage: hel mcp [list [--json] [--url URL]] | call SERVER TOOL [JSON] | " +
        "call --url URL TOOL [JSON] | get NAME | add NAME [--scope user|project] " +
        "[--env NAME=VALUE]... [--timeout SECONDS] -- COMMAND [ARGS...] | " +
        "add --transport http|sse NAME URL [--header-env HEADER=VAR]... [--bearer-token-env VAR] | " +
        "remove NAME [--scope user|project] | login NAME | login --url URL | logout NAME | " +
        "logout --url URL\n\n" +
        "list, call, show, add and remove MCP servers (yours and the project's)\n",
    );
  }
  // Other words are still the plugin's to judge.
  const wrong = await runHelInProcess(["mcp", "lst"], { cwd: project.project });
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /unknown command 'lst'\n\(Did you mean list\?\)/);
});

Deno.test("hel plugins alone lists the plugins, as hel plugins list does", async () => {
  await using project = await tempProject();
  const alone = await runHelInProcess(["plugins"], { cwd: project.project });
  const list = await runHelInProcess(["plugins", "list"], { cwd: project.project });
  assert.equal(alone.code, 0, alone.stderr);
  assert.equal(alone.stdout, list.stdout);
  assert.match(alone.stdout, /^mcp {2}MCP servers/m);
});

Deno.test("every flag the READMEs show is one hel's help lists", async () => {
  await using project = await tempProject();
  const docs = [
    "README.md",
    "plugins/README.md",
    "cli/README.md",
    "cli/chat/README.md",
    "agent/README.md",
    "agent/settings/README.md",
  ];
  for (const entry of Deno.readDirSync(`${REPO_ROOT}/plugins`)) {
    if (entry.isDirectory) docs.push(`plugins/${entry.name}/README.md`);
  }
  const texts = await Promise.all(
    docs.map((doc) => Deno.readTextFile(`${REPO_ROOT}/${doc}`).catch(() => "")),
  );
  const helps: string[] = [];
  // One at a time: an in-process run owns stdout while it runs.
  for (
    const args of [
      ["--help"],
      ["trust", "--help"],
      ["sessions", "--help"],
      ["sessions", "export", "--help"],
      ["sessions", "prune", "--help"],
      ["config", "set", "--help"],
      ["mcp", "add", "--help"],
      ["mcp", "remove", "--help"],
      ["mcp", "list", "--help"],
    ]
  ) helps.push((await runHelInProcess(args, { cwd: project.project })).stdout);
  const listed = helps.join("\n");
  // The `deno install` line shows Deno's flags, not hel's; `--config=...` in an MCP entry is
  // the server's own argument.
  const helLines = texts.join("\n").split("\n").filter((line) => !line.includes("deno install"));
  const flags = new Set(helLines.join("\n").match(/--[a-z][a-z0-9-]*(?![a-z0-9=-])/g));
  assert.ok(flags.has("--model") && flags.has("--mcp-eager"), [...flags].join(" "));
  const missing = [...flags].filter((flag) => !new RegExp(`${flag}\\b`).test(listed));
  assert.deepEqual(missing, []);
});

Deno.test("hel --help shows no raw empty-list default", async () => {
  await using project = await tempProject();
  const help = await runHelInProcess(["--help"], { cwd: project.project });
  assert.equal(help.code, 0, help.stderr);
  assert.match(
    help.stdout,
    /--without <plugin> +run without a plugin \(repeatable\) \(default: none\)/,
  );
  assert.doesNotMatch(help.stdout, /\(default: \[\]\)/);
  // Still repeatable: every --without is checked.
  const wrong = await runHelInProcess(["--without", "mcp", "--without", "nope", "hi"], {
    cwd: project.project,
  });
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /--without nope: no such plugin/);
});

Deno.test("output into a pipe closed early (| grep -q, | head) ends quietly", async () => {
  await using project = await tempProject();
  for (const args of [["--help"], ["plugins", "list"], ["sessions"]]) {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", `${REPO_ROOT}/main.ts`, ...args],
      cwd: project.project,
      env: { HEL_HOME: `${project.root}/hel-home`, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    await child.stdout.cancel(); // the reader is gone before hel writes
    const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
    assert.equal(stderr, "", `hel ${args.join(" ")}`);
    assert.equal(status.code, 0, `hel ${args.join(" ")}`);
  }
});

Deno.test("hel help [command] prints what --help prints, for hel and for each command", async () => {
  await using project = await tempProject();
  const cwd = project.project;
  for (
    const [words, flagged] of [
      [["help"], ["--help"]],
      [["help", "trust"], ["trust", "--help"]],
      [["help", "sessions", "show"], ["sessions", "show", "--help"]],
      [["help", "mcp"], ["mcp", "--help"]],
      [["help", "mcp", "add"], ["mcp", "add", "--help"]],
      [["help", "mcp", "remove"], ["mcp", "remove", "--help"]],
    ] as [string[], string[]][]
  ) {
    const help = await runHelInProcess(words, { cwd });
    const expected = await runHelInProcess(flagged, { cwd });
    assert.equal(help.code, 0, help.stderr);
    assert.equal(help.stdout, expected.stdout, words.join(" "));
    assert.match(help.stdout, /^Usage: hel/);
  }
  // A plugin's subcommand answers with its own help, flags included.
  const add = await runHelInProcess(["help", "mcp", "add"], { cwd });
  assert.match(add.stdout, /^Usage: hel mcp add NAME \[options\] -- COMMAND/);
  assert.match(add.stdout, /--scope <scope>/);
  const root = await runHelInProcess(["--help"], { cwd });
  assert.match(root.stdout, /^ {2}help \[command\.\.\.\] +show the help of hel, or of a command$/m);
});

Deno.test("hel help with a word that is no command says so, and how to send such an instruction", async () => {
  await using project = await tempProject();
  const result = await runHelInProcess(["help", "me", "fix", "the", "tests"], {
    cwd: project.project,
  });
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.equal(
    result.stderr,
    "hel: help me: no such command (commands: plugins, trust, config, sessions, mcp, help); to give " +
      'the model an instruction that starts with "help", use -i: hel -i "help me fix the tests"\n',
  );
  const nested = await runHelInProcess(["help", "sessions", "lst"], { cwd: project.project });
  assert.equal(nested.code, 2);
  assert.equal(
    nested.stderr,
    "hel: help sessions lst: no such command (commands: list, show, export, delete, prune)\n",
  );
});

Deno.test("-v, -V and --version all print the version; the help shows -v", async () => {
  await using project = await tempProject();
  const version = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`)).version;
  for (const flag of ["-v", "-V", "--version"]) {
    const result = await runHelInProcess([flag], { cwd: project.project });
    assert.equal(result.code, 0, `${flag}: ${result.stderr}`);
    assert.match(result.stdout, new RegExp(`^hel ${version}\ncommit  .*\nbuilt   `), flag);
  }
  const help = await runHelInProcess(["--help"], { cwd: project.project });
  assert.match(help.stdout, /^ {2}-v, --version +output the version number$/m);
});
