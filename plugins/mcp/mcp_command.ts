/**
 * `hel mcp`: list (the default), get, add and remove MCP servers. The plugin receives the words
 * after `mcp` as typed and reads them with commander; the server's own command line is whatever
 * follows `--`, never read as options.
 *
 * @module
 */
import { Command, CommanderError, Option } from "@commander-js/extra-typings";
import type { PluginCommand, PluginContext } from "../../core/mod.ts";
import { writeErr, writeOut } from "../../kit/mod.ts";
import { type Scope, SCOPES } from "./config_files.ts";
import { addServer, removeServer } from "./edit_commands.ts";
import { getServer } from "./get_command.ts";
import type { McpPluginOptions } from "./options.ts";
import { hasOAuthFlags, OAUTH_FLAGS, type RemoteFlags, urlServer } from "./remote_flags.ts";

const USAGE =
  "[list [--json] [--url URL]] | call SERVER TOOL [JSON] | call --url URL TOOL [JSON] | get NAME | " +
  "add NAME [--scope user|project] [--env NAME=VALUE]... [--timeout SECONDS] -- COMMAND [ARGS...] | " +
  "add --transport http|sse NAME URL [--header-env HEADER=VAR]... [--bearer-token-env VAR] | " +
  "remove NAME [--scope user|project] | login NAME | login --url URL | logout NAME | logout --url URL";

const ADD_HELP = `
The server's program and its arguments follow --, as you would type them; hel runs them
without a shell (no ~ or $VAR expansion). --scope user (the default) writes your own
$HEL_HOME/mcp.json: like Claude Code's default scope ("local"), the entry stays out of the
repository and needs no trust question, and here it serves every project. --scope project
writes the project's .hel/mcp.json, which is shared with the repository; any change to it,
this one too, is asked about (trusted) on the next run. Comments in either file are kept.

Examples:
  $ hel mcp add everything -- npx -y @modelcontextprotocol/server-everything@2026.1.26
  $ hel mcp add --scope project inventory -- python3 .hel/mcp/inventory.py
  $ hel mcp add github --env 'GITHUB_TOKEN=\${GITHUB_TOKEN}' -- github-mcp-server stdio
    ('\${GITHUB_TOKEN}' passes hel's own variable on when the server starts)
  $ hel mcp add --transport http github https://api.githubcopilot.com/mcp/ \\
      --bearer-token-env GITHUB_TOKEN
    (a remote server: no --, nothing is started; the header's value is read from your
    variable GITHUB_TOKEN when hel connects, and never written in the file)`;

const CALL_HELP = `
The server starts as in a run (sandboxed, the project's file only once trusted), its tool is
called once without a permission question (you asked for it), and the result is printed as
the model would read it: images and audio as markers with their type and size. Exit 0 with
the result on stdout; 1 when the tool reports an error (printed on stderr) or the server does
not start; 2 for a server or tool that is not there or arguments that do not fit.

Examples:
  $ hel mcp call everything echo '{"message": "hi"}'
  $ hel mcp call fs mcp__fs__read_text_file '{"path": "README.md"}'`;

/** The `hel mcp` command. */
export function createMcpCommand(options: McpPluginOptions): PluginCommand {
  return {
    name: "mcp",
    description: "list, call, show, add and remove MCP servers (yours and the project's)",
    usage: USAGE,
    async run(args, context) {
      return await runMcpCommand(args, options, context);
    },
  };
}

/** Runs `hel mcp ...args`; returns the exit code (2 for a usage mistake). */
async function runMcpCommand(
  args: string[],
  options: McpPluginOptions,
  context: PluginContext,
): Promise<number> {
  // The server's command line is everything after the first `--`, taken as it is.
  const cut = args.indexOf("--");
  const words = cut === -1 ? args : args.slice(0, cut);
  const commandLine = cut === -1 ? undefined : args.slice(cut + 1);
  let code = 0;
  const program = mcpProgram({
    list: async (json, remote) => {
      const given = remote.url === undefined ? undefined : urlServer(remote.url, remote);
      if (typeof given === "string") return void (code = usageError(given));
      // Loaded when used: they bring the MCP SDK, which every other start of hel does without.
      const { listServers } = await import("./list_command.ts");
      code = await listServers(options, context, json ? "json" : "text", given);
    },
    call: async (words, remote) => {
      // With --url the server is the one given, and the words are TOOL [JSON].
      const [server, tool, json] = remote.url === undefined ? words : ["", ...words];
      if (tool === undefined || (remote.url === undefined ? words.length : words.length + 1) > 3) {
        return void (code = usageError(
          "call takes SERVER TOOL [JSON], or --url URL TOOL [JSON] (quote the JSON as one word)",
        ));
      }
      const given = remote.url === undefined ? undefined : urlServer(remote.url, remote);
      if (typeof given === "string") return void (code = usageError(given));
      const { callTool } = await import("./call_command.ts");
      code = await callTool({ server: server!, tool, json, given }, options, context);
    },
    login: async (name, remote, out) => {
      if ((name === undefined) === (remote.url === undefined)) {
        return void (code = usageError(`${out ? "logout" : "login"} takes NAME, or --url URL`));
      }
      if (name !== undefined && hasOAuthFlags(remote)) {
        return void (code = usageError(
          `the OAuth flags (--client-id, --grant, ...) go with --url; for ${name}, write them in ` +
            'its entry: "oauth": {"clientId": "...", "clientSecretEnv": "VAR"}',
        ));
      }
      const given = remote.url === undefined
        ? undefined
        : urlServer(remote.url, { ...remote, transport: undefined, headerEnv: [] });
      if (typeof given === "string") return void (code = usageError(given));
      const { login, logout } = await import("./oauth_login.ts");
      code = await (out ? logout : login)(name, given, context);
    },
    get: async (name) => {
      code = await getServer(name, context);
    },
    remove: async (name, scope) => {
      code = await removeServer(name, scope, context);
    },
    add: async (name, flags, extra) => {
      if (flags.transport === "http" || flags.transport === "sse") {
        code = extra.length !== 1 || commandLine !== undefined
          ? usageError(`add --transport ${flags.transport} takes NAME URL, and no -- COMMAND`)
          : await addServer({
            name,
            commandLine: [],
            ...flags,
            // "http" is the default, which keeps the fallback to SSE: not written.
            remote: {
              ...flags,
              transport: flags.transport === "http" ? undefined : flags.transport,
              url: extra[0]!,
            },
          }, context);
        return;
      }
      if (flags.headerEnv.length > 0 || flags.bearerTokenEnv !== undefined) {
        return void (code = usageError(
          "--header-env and --bearer-token-env are for a remote server: add --transport http NAME URL",
        ));
      }
      code = commandLine === undefined || extra.length > 0
        ? missingSeparator()
        : await addServer({ name, commandLine, ...flags }, context);
    },
  });
  const subcommand = words[0];
  if (commandLine !== undefined && subcommand !== "add") {
    writeErr(`hel mcp: only hel mcp add takes -- COMMAND; usage: hel mcp ${USAGE}\n`);
    return 2;
  }
  // Without `--` the command's own options would be read as add's (or refused as unknown).
  const help = words.includes("--help") || words.includes("-h");
  if (subcommand === "add" && commandLine === undefined && !help && !remoteAdd(words)) {
    return missingSeparator();
  }
  try {
    // `hel mcp` is `hel mcp list`, and `hel mcp --json` is `hel mcp list --json`.
    const list = words.length === 0 || (words.length === 1 && words[0] === "--json");
    await program.parseAsync(list ? ["list", ...words] : words, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  return code;
}

/** True for `add --transport http|sse ...`: a URL, no `--`. */
function remoteAdd(words: string[]): boolean {
  return words.some((word, index) =>
    /^--transport=(http|sse)$/.test(word) ||
    (word === "--transport" && /^(http|sse)$/.test(words[index + 1] ?? ""))
  );
}

function usageError(text: string): number {
  writeErr(`hel mcp: ${text}\n`);
  return 2;
}

function missingSeparator(): number {
  writeErr(
    "hel mcp add: put -- between the name and the server's command, so that the command's " +
      "options stay its own: hel mcp add NAME [--scope ...] [--env ...] -- COMMAND [ARGS...]\n",
  );
  return 2;
}

/** What each subcommand does once its words are read. */
interface Actions {
  list(json: boolean, remote: UrlFlags): Promise<void>;
  /** `words`: SERVER TOOL [JSON], or with `--url` TOOL [JSON]. */
  call(words: string[], remote: UrlFlags): Promise<void>;
  /** `login` (or with `out`, `logout`): NAME, or the server given with `--url`. */
  login(name: string | undefined, remote: UrlFlags, out: boolean): Promise<void>;
  get(name: string): Promise<void>;
  remove(name: string, scope: Scope | undefined): Promise<void>;
  add(
    name: string,
    flags: { scope: Scope; env: string[]; timeout?: string; replace: boolean } & RemoteFlags,
    /** Words after NAME before `--`: a command line written without `--`. */
    extra: string[],
  ): Promise<void>;
}

/** `--url` and the flags that say how to reach it. */
type UrlFlags = RemoteFlags & { url?: string };

/** The flags of a remote server: how to reach it and what to send it. */
// Any command, whatever its arguments: the options are read back through `UrlFlags`.
// deno-lint-ignore no-explicit-any
function remoteOptions<T extends Command<any, any, any>>(
  command: T,
  transports: string[],
): T {
  command.addOption(
    new Option("--transport <kind>", "how to reach the server").choices(transports),
  );
  command.option(
    "--header-env <HEADER=VAR>",
    "send HEADER with the value of your variable VAR (repeatable)",
    (value: string, previous: string[]) => [...previous, value],
    [] as string[],
  );
  command.option("--bearer-token-env <VAR>", "send Authorization: Bearer <value of VAR>");
  return clientOptions(command);
}

/** The entry's `"oauth"` fields as flags (remote_flags.ts's OAUTH_FLAGS). */
// deno-lint-ignore no-explicit-any
function clientOptions<T extends Command<any, any, any>>(command: T): T {
  for (const [field, flag, description] of OAUTH_FLAGS) {
    // commander names the value after the flag; the entry's field is the same word.
    const value = /Env$/.test(field) ? "VAR" : field === "privateKeyFile" ? "PATH" : "VALUE";
    command.option(`${flag} <${value}>`, description);
  }
  return command;
}

function mcpProgram(actions: Actions) {
  const program = new Command("hel mcp")
    .description("list, call, show, add and remove MCP servers")
    .exitOverride()
    .showSuggestionAfterError()
    .configureOutput({
      writeOut,
      writeErr: (text) =>
        writeErr(
          text.replace(/^error: /, "hel mcp: ").replace(
            /^(hel mcp: unknown option '.*')\n$/,
            "$1 (hel's own flags go before mcp, e.g. hel --sandbox off mcp list)\n",
          ),
        ),
    });
  const list = program.command("list")
    .description("start the servers a run would start and show each one's status and tools")
    .option("--json", "print one JSON object (files, servers, tools, exclusions) for scripts")
    .option("--url <url>", "list only the remote server at this address (no files, no trust)");
  remoteOptions(list, ["http", "sse"])
    .action((flags) => actions.list(flags.json === true, flags as UrlFlags));
  const call = program.command("call")
    .description(
      "start one server and call one of its tools, printing the result as the model reads it",
    )
    .usage("SERVER TOOL [JSON] | --url URL TOOL [JSON]")
    .argument("<server>", "the server's name (with --url: the tool)")
    .argument("[tool]", "the tool's name: the server's own, or mcp__<server>__<tool>")
    .argument("[json]", `its arguments as one JSON object, e.g. '{"path": "README.md"}'`)
    .option("--url <url>", "call a tool of the remote server at this address (no files, no trust)")
    .addHelpText("after", CALL_HELP);
  remoteOptions(call, ["http", "sse"])
    .action((server, tool, json, flags) =>
      actions.call(
        [server, tool, json].filter((word): word is string => word !== undefined),
        flags as UrlFlags,
      )
    );
  for (const out of [false, true]) {
    const command = program.command(out ? "logout" : "login")
      .description(
        out
          ? "remove the tokens hel keeps for a remote server"
          : "log in to a remote server with OAuth (opens the browser, keeps the tokens)",
      )
      .argument("[name]", "the server's name")
      .option("--url <url>", "the remote server at this address (no files, no trust)");
    clientOptions(command).action((name, flags) => actions.login(name, flags as UrlFlags, out));
  }
  program.command("get")
    .description("show a server's entry and the file it comes from (starts nothing)")
    .argument("<name>", "the server's name")
    .action(actions.get);
  const scope = (description: string) =>
    new Option("-s, --scope <scope>", description).choices(SCOPES);
  program.command("add")
    .description(
      "add a server (a command, or a remote URL) to your own or the project's MCP configuration",
    )
    .usage("NAME [options] -- COMMAND [ARGS...]")
    .argument("<name>", "letters, digits, '-' and single '_', e.g. notes or issue-tracker")
    .addOption(
      scope("user: $HEL_HOME/mcp.json; project: .hel/mcp.json").default("user" as Scope),
    )
    .option(
      "-e, --env <NAME=VALUE>",
      "a variable the server gets (repeatable); NAME='${NAME}' passes hel's own on",
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option("--timeout <seconds>", "seconds a call may go without an answer (default 300)")
    .option("--replace", "replace an entry of that name instead of refusing", false)
    .addOption(
      new Option("--transport <kind>", "stdio (a command after --), or http or sse: NAME URL")
        .choices(["stdio", "http", "sse"]),
    )
    .option(
      "--header-env <HEADER=VAR>",
      "remote: send HEADER with the value of your variable VAR (repeatable)",
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option("--bearer-token-env <VAR>", "remote: send Authorization: Bearer <value of VAR>")
    .addHelpText("after", ADD_HELP)
    // Words after NAME are a command line that lacks its `--`: the action says so.
    .allowExcessArguments()
    .action((name, flags, command) => actions.add(name, flags, command.args.slice(1)));
  program.command("remove")
    .description("remove a server from the file that has it")
    .argument("<name>", "the server's name")
    .addOption(scope("the file to remove it from, when both have it"))
    .action((name, flags) => actions.remove(name, flags.scope));
  return program;
}
