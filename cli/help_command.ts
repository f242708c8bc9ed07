/**
 * `hel help [command]`: hel's help, or a command's, as `--help` prints it. A word that names
 * no command is a usage error that lists the commands and says how to send the model an
 * instruction that starts with "help".
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { PluginCommand } from "../core/plugin.ts";
import { UsageError } from "../core/usage_error.ts";

/** What `hel <plugin command> --help` prints: the plugin's own usage line and description. */
export function pluginCommandHelp(command: PluginCommand): string {
  return `Usage: hel ${command.name} ${command.usage}\n\n${command.description}\n`;
}

/**
 * Adds `help [command]` to `program`, after its other commands; `pluginCommands` answer with
 * their own help, as they do to `--help`: `runPlugin` runs one as `hel <name> <words> --help`
 * would, so `hel help mcp add` is the plugin's help of `add`.
 */
export function addHelpCommand(
  // deno-lint-ignore no-explicit-any
  program: Command<any, any, any>,
  pluginCommands: readonly PluginCommand[],
  runPlugin: (command: PluginCommand, args: string[]) => Promise<void>,
): void {
  program.command("help")
    .description("show the help of hel, or of a command")
    .argument("[command...]", "the command whose help to show (sessions show: a subcommand's)")
    .action(async (words: string[]) => {
      const plugin = pluginCommands.find((command) => command.name === words[0]);
      if (plugin) return await runPlugin(plugin, [...words.slice(1), "--help"]);
      let command = program;
      for (const [index, word] of words.entries()) {
        const next = command.commands.find((sub) => sub.name() === word);
        if (!next) throw new UsageError(noSuchCommand(command, words, index));
        command = next;
      }
      command.outputHelp(); // with the text after it (the examples), as --help prints it
    });
}

/** The message for `hel help <words>` whose word at `index` names no command of `parent`. */
function noSuchCommand(
  // deno-lint-ignore no-explicit-any
  parent: Command<any, any, any>,
  words: readonly string[],
  index: number,
): string {
  const names = parent.commands.map((command) => command.name()).join(", ");
  const said = `help ${words.slice(0, index + 1).join(" ")}: no such command (commands: ${names})`;
  if (index > 0) return said;
  // `hel help me fix the build` was meant as an instruction: say how to send that.
  return `${said}; to give the model an instruction that starts with "help", use -i: ` +
    `hel -i "help ${words.join(" ")}"`;
}
