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

const USAGE =
  "[list [--json]] | call SERVER TOOL [JSON] | get NAME | add NAME [--scope user|project] [--env NAME=VALUE]... " +
  "[--timeout SECONDS] -- COMMAND [ARGS...] | remove NAME [--scope user|project]";

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
    ('\${GITHUB_TOKEN}' passes hel's own variable on when the server starts)`;

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
    list: async (json) => {
      // Loaded when used: they bring the MCP SDK, which every other start of hel does without.
      const { listServers } = await import("./list_command.ts");
      code = await listServers(options, context, json ? "json" : "text");
    },
    call: async (server, tool, json) => {
      const { callTool } = await import("./call_command.ts");
      code = await callTool({ server, tool, json }, options, context);
    },
    get: async (name) => {
      code = await getServer(name, context);
    },
    remove: async (name, scope) => {
      code = await removeServer(name, scope, context);
    },
    add: async (name, flags, extra) => {
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
  if (subcommand === "add" && commandLine === undefined && !help) return missingSeparator();
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

function missingSeparator(): number {
  writeErr(
    "hel mcp add: put -- between the name and the server's command, so that the command's " +
      "options stay its own: hel mcp add NAME [--scope ...] [--env ...] -- COMMAND [ARGS...]\n",
  );
  return 2;
}

/** What each subcommand does once its words are read. */
interface Actions {
  list(json: boolean): Promise<void>;
  call(server: string, tool: string, json: string | undefined): Promise<void>;
  get(name: string): Promise<void>;
  remove(name: string, scope: Scope | undefined): Promise<void>;
  add(
    name: string,
    flags: { scope: Scope; env: string[]; timeout?: string; replace: boolean },
    /** Words after NAME before `--`: a command line written without `--`. */
    extra: string[],
  ): Promise<void>;
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
  program.command("list")
    .description("start the servers a run would start and show each one's status and tools")
    .option("--json", "print one JSON object (files, servers, tools, exclusions) for scripts")
    .action((flags) => actions.list(flags.json === true));
  program.command("call")
    .description(
      "start one server and call one of its tools, printing the result as the model reads it",
    )
    .argument("<server>", "the server's name")
    .argument("<tool>", "the tool's name: the server's own, or mcp__<server>__<tool>")
    .argument("[json]", `its arguments as one JSON object, e.g. '{"path": "README.md"}'`)
    .addHelpText("after", CALL_HELP)
    .action(actions.call);
  program.command("get")
    .description("show a server's entry and the file it comes from (starts nothing)")
    .argument("<name>", "the server's name")
    .action(actions.get);
  const scope = (description: string) =>
    new Option("-s, --scope <scope>", description).choices(SCOPES);
  program.command("add")
    .description("add a stdio server to your own or the project's MCP configuration")
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
