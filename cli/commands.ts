/**
 * Subcommands: hel's own (`plugins`, `help`) and those plugins contribute (e.g. `mcp`). Each returns
 * an exit code through `setExitCode`.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { LoadedPlugin } from "../agent/plugin_loader.ts";
import { trustedConfigFile, type TrustKind } from "../core/trust.ts";
import type { PluginCommand, PluginContext } from "../core/plugin.ts";
import { SETTINGS_TRUST } from "../agent/settings/trust.ts";
import { addConfigCommand } from "./config_command.ts";
import { settingsReader } from "./settings_apply.ts";
import { helHome, projectDir } from "../agent/context_file.ts";
import { exitCleanlyOnTermination } from "./exit_signals.ts";
import { formatPluginList } from "./plugins_command.ts";
import { addHelpCommand, pluginCommandHelp } from "./help_command.ts";
import { parseAge, sessionsDelete, sessionsList, sessionsPrune } from "./sessions_command.ts";
import { sessionsExport, sessionsShow } from "./session_show.ts";
import { orList, runTrustCommand } from "./trust_command.ts";
import { writeOut } from "../kit/output.ts";

/** Adds every subcommand to `program`. */
export function addCommands(
  // deno-lint-ignore no-explicit-any
  program: Command<any, any, any>,
  plugins: readonly LoadedPlugin[],
  setExitCode: (code: number) => void,
  /** The invocation's one context (and reader of stdin), made when first needed. */
  cliContext: () => Promise<PluginContext>,
) {
  program.command("plugins")
    .description("show the plugins this build is made of")
    // `hel plugins` alone lists them too: there is nothing else it could mean.
    .command("list", { isDefault: true })
    .description("each plugin with its description, tools and interception points")
    .action(() => writeOut(formatPluginList(plugins)));

  // The kinds of trusted configuration: those the plugins declare and hel's own settings.
  const configs = [...plugins.flatMap(({ plugin }) => plugin.trustedConfigs ?? []), SETTINGS_TRUST];
  const kinds = configs.map((config) => config.kind);
  const files = configs.map((config) => `.hel/${trustedConfigFile(config)}`);
  program.command("trust")
    .description(`review and trust this project's ${orList(files)}`)
    .argument("[kind]", `${orList(kinds)}: show what the file runs and ask now`)
    .option("--sha256 <hex>", "trust without a terminal, only if the file has this SHA-256")
    .option("--show-file", "print the file as written (control characters escaped); trust nothing")
    .option("--list", "list every trust record")
    .option("--revoke <kind>", "remove this project's trust record of a kind")
    .action(async (kind, options) => {
      const context = await cliContext();
      const settings = await settingsReader(program, plugins, context);
      // The plugin that reads a kind of file checks it, so an invalid one is never trusted,
      // and says what it runs, so the review shows the parsed file rather than its text.
      const readers = {
        configs,
        check: (kind: TrustKind, bytes: Uint8Array, path: string) =>
          kind === SETTINGS_TRUST.kind
            ? settings.check(bytes, path)
            : plugins.map(({ plugin }) => plugin.checkConfig?.(kind, bytes, path)).find(Boolean),
        summarize: (kind: TrustKind, bytes: Uint8Array, path: string) =>
          kind === SETTINGS_TRUST.kind
            ? settings.summarize(bytes, path)
            : plugins.map(({ plugin }) => plugin.summarizeConfig?.(kind, bytes, path))
              .find(Boolean),
      };
      setExitCode(await runTrustCommand(kind, options, context, undefined, readers));
    });

  addConfigCommand(program, plugins, setExitCode, cliContext);

  const sessions = program.command("sessions")
    .description("list this project's sessions: id, age, turns, model, first prompt");
  // `hel sessions` alone lists them too (`hel sessions --json` included).
  sessions.command("list", { isDefault: true })
    .description("a table of the sessions, most recent first: id, age, turns, model, first prompt")
    .option("--json", "print every session with its whole id as JSON")
    .action(async (options) => writeOut(await sessionsList(await projectDir(), options)));
  const id = ["<id>", "the session id, or its first 8 characters at least"] as const;
  sessions.command("show")
    .description("print a session's conversation (text, or its journal entries with --json)")
    .argument(...id)
    .option("--json", "print the conversation as JSON")
    .action(async (id, options) => writeOut(await sessionsShow(await projectDir(), id, options)));
  sessions.command("export")
    .description("write a session's conversation as a readable transcript")
    .argument(...id)
    .option("--format <format>", "the transcript's format: markdown", "markdown")
    .action(async (id, options) => writeOut(await sessionsExport(await projectDir(), id, options)));
  sessions.command("delete")
    .description("delete a session with its spill files (refused while it is in use)")
    .argument(...id)
    .action(async (id) => writeOut(await sessionsDelete(await projectDir(), id, helHome())));
  sessions.command("prune")
    .description("delete the sessions last written longer ago than --older-than (not those in use)")
    .requiredOption("--older-than <age>", "a number and a unit: d, h or m (30d, 12h)", parseAge)
    .option("--dry-run", "list what would be deleted; delete nothing")
    .action(async (options) =>
      writeOut(await sessionsPrune(await projectDir(), helHome(), options))
    );

  const runPluginCommand = async (command: PluginCommand, args: string[]) => {
    // Help is turned off below so the plugin sees every word, so answer --help here.
    if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
      return void writeOut(pluginCommandHelp(command));
    }
    const context = await cliContext();
    // On SIGTERM or SIGHUP exit with the usual code; plugins clean up on unload.
    const removeHandlers = exitCleanlyOnTermination(() => Promise.resolve());
    try {
      setExitCode(await command.run(args, context));
    } finally {
      removeHandlers();
    }
  };
  for (const { plugin } of plugins) {
    for (const command of plugin.commands ?? []) {
      program.command(command.name)
        .description(`${command.description} [${plugin.name}]`)
        .argument("[args...]")
        .allowUnknownOption()
        .helpOption(false)
        .action((args) => runPluginCommand(command, args));
    }
  }

  addHelpCommand(program, plugins.flatMap(({ plugin }) => plugin.commands ?? []), runPluginCommand);
}

/**
 * Lets a plugin's subcommand see the words after its name exactly as typed, when `argv` runs
 * one: otherwise commander takes hel's own flags out of them wherever they stand (`hel mcp add
 * x --timeout 5 -- cmd` would set the model's `--timeout`) and drops the `--` that ends the
 * options. hel's own flags then go before the subcommand's name (`hel --sandbox off mcp list`).
 */
export function passWordsToPluginCommand(
  // deno-lint-ignore no-explicit-any
  program: Command<any, any, any>,
  plugins: readonly LoadedPlugin[],
  argv: readonly string[],
): void {
  const names = new Set(
    plugins.flatMap(({ plugin }) => (plugin.commands ?? []).map((c) => c.name)),
  );
  const first = firstOperand(program, argv);
  if (first === undefined || !names.has(first)) return;
  program.enablePositionalOptions();
  program.commands.find((command) => command.name() === first)?.passThroughOptions();
}

/** The first word of `argv` that is not a flag of hel's or a flag's value, as commander reads. */
function firstOperand(
  // deno-lint-ignore no-explicit-any
  program: Command<any, any, any>,
  argv: readonly string[],
): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--") return undefined;
    if (!word.startsWith("-") || word === "-") return word;
    const option = program.options.find((o) => o.long === word || o.short === word);
    const next = argv[i + 1];
    if (option?.required) i++;
    else if (option?.optional && next !== undefined && !next.startsWith("-")) i++;
  }
  return undefined;
}
