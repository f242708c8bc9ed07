/**
 * The chat's slash commands: what each does, completion of a typed prefix, and running a typed
 * line that is a command. A line whose first word is `/word` is a command, never a message: an
 * unknown one is answered, not sent to the model (`/usr/bin holds what?` is a message, since
 * `/usr/bin` is no command word). The commands act through a {@link CommandContext}, which the
 * full-screen chat and the plain line chat each provide.
 *
 * @module
 */
import type { SessionRules } from "./session_rules.ts";
import type { SavedRule } from "./rule_saver.ts";
import { escapeControlCharacters } from "../../core/neutralise.ts";
import { errorMessage } from "../../core/errors.ts";
import type { Run } from "../../agent/run.ts";
import { clearCommand, compactCommand, resumeCommand } from "./commands/session.ts";
import { mcpCommand, modelCommand, statusCommand, toolsCommand } from "./commands/info.ts";
import { permissionsCommand } from "./commands/permissions.ts";
import { initCommand } from "./commands/init.ts";
import { table } from "./commands/format.ts";
import type { ChatCommand } from "../../core/chat_command.ts";

/** What `/permissions` needs of the chat's "don't ask again" rules. */
export type SessionRuleList = Pick<SessionRules, "list" | "remove">;

/** What a command can do in the chat that runs it. */
export interface CommandContext {
  run: Run;
  rules: SessionRuleList;
  /** The rules saved in the settings files from this chat's questions (u, p), if it can. */
  savedRules?(): readonly SavedRule[];
  /**
   * Shows text to the person, as hel's own lines. Commands neutralise any outside text in it
   * (model, tool and server text, file contents) before they print it.
   */
  print(text: string): void;
  /** Lets the person choose one item; undefined when they cancel. */
  pick<T>(title: string, items: { label: string; value: T }[]): Promise<T | undefined>;
  /** Sends a user turn, as if the person had typed `prompt` (`/init`). */
  send(prompt: string): Promise<void>;
  exit(): void;
  clearScreen(): void;
  /**
   * Runs a model request a command makes (`/compact`'s summary) the way the chat runs a turn:
   * the working indicator shows and Esc (Ctrl-C in the plain chat) interrupts it through the
   * signal. Without it the request cannot be interrupted.
   */
  request?<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** The keys `/help` lists, as `[keys, what they do]`; the full-screen chat's by default. */
  keys?: readonly (readonly [string, string])[];
}

/** A slash command. */
export interface SlashCommand {
  /** The word after the slash: `help` for `/help`. */
  name: string;
  /** One line for `/help` and the completion list. */
  summary: string;
  /** What may follow the name (`[id]`); a command without it refuses an argument. */
  argument?: string;
  run(context: CommandContext, argument: string): Promise<void>;
}

/** The full-screen chat's keys, as `/help` lists them. */
export const CHAT_KEYS: readonly (readonly [string, string])[] = [
  ["Enter", "send the message"],
  ["Shift+Enter, Ctrl-J, \\ Enter", "new line"],
  ["↑ ↓", "earlier and later messages"],
  ["Ctrl-R", "search earlier messages"],
  ["Tab", "complete a command"],
  ["Esc", "interrupt hel (the conversation notes it)"],
  ["Ctrl-C", "clear the input; twice within 2 s: leave"],
  ["Ctrl-D", "leave (on an empty line)"],
];

const helpCommand: SlashCommand = {
  name: "help",
  summary: "list the commands and keys",
  run(context) {
    // A plugin's commands (MCP prompts) are a server's text: escaped before they are shown.
    const commands = [...SLASH_COMMANDS, ...context.run.chatCommands()].map((command) =>
      [
        escapeControlCharacters(
          `/${command.name}${command.argument ? ` ${command.argument}` : ""}`,
        ),
        escapeControlCharacters(command.summary),
      ] as const
    );
    context.print(
      `Commands:\n${table(commands)}\n\nKeys:\n${table(context.keys ?? CHAT_KEYS)}`,
    );
    return Promise.resolve();
  },
};

const exitCommand: SlashCommand = {
  name: "exit",
  summary: "leave hel (the session stays saved)",
  run(context) {
    context.exit();
    return Promise.resolve();
  },
};

/** Every command, in the order `/help` lists them. */
export const SLASH_COMMANDS: readonly SlashCommand[] = [
  helpCommand,
  clearCommand,
  compactCommand,
  modelCommand,
  resumeCommand,
  statusCommand,
  toolsCommand,
  mcpCommand,
  permissionsCommand,
  initCommand,
  exitCommand,
];

/**
 * The commands a typed prefix (`/mo`, with or without its slash) can complete to, in `/help`
 * order; none once an argument is being typed.
 */
export function matchCommands(prefix: string): SlashCommand[] {
  const word = prefix.startsWith("/") ? prefix.slice(1) : prefix;
  if (/\s/.test(word)) return [];
  return SLASH_COMMANDS.filter((command) => command.name.startsWith(word.toLowerCase()));
}

/** A typed line as a command (`/model deepseek-chat`), or undefined when it is a message. */
export function parseCommandLine(text: string): { name: string; argument: string } | undefined {
  // Letters, digits, `_` and `-`, as plugins' commands are named (`/mcp__notes__summarise`).
  const found = /^\/([a-z][a-z0-9_-]*)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (!found) return text.trim() === "/" ? { name: "", argument: "" } : undefined;
  return { name: found[1]!.toLowerCase(), argument: (found[2] ?? "").trim() };
}

/**
 * Runs `text` when it is a command line and returns true; false when it is a message for the
 * model. A failing command is reported, and the chat goes on.
 */
export async function runSlashCommand(text: string, context: CommandContext): Promise<boolean> {
  const line = parseCommandLine(text);
  if (!line) return false;
  const command = SLASH_COMMANDS.find((known) => known.name === line.name);
  const typed = `/${escapeControlCharacters(line.name)}`;
  // `line.name` is lower-cased; a plugin's names keep their case (`Greet` beside `greet`).
  const asTyped = /^\/(\S+)/.exec(text.trim())?.[1] ?? line.name;
  const plugin = command ? undefined : pluginCommand(context, asTyped);
  if (plugin) {
    await runPluginCommand(plugin, line.argument, context);
  } else if (!command) {
    context.print(`unknown command ${typed} — /help lists them`);
  } else if (line.argument !== "" && !command.argument) {
    context.print(`${typed} takes no argument — /help lists the commands`);
  } else {
    try {
      await command.run(context, line.argument);
    } catch (error) {
      context.print(`${typed}: ${escapeControlCharacters(errorMessage(error))}`);
    }
  }
  return true;
}

/**
 * The plugin command named `name` as typed, else the one it names in another case, if a plugin
 * offers one now.
 */
function pluginCommand(context: CommandContext, name: string): ChatCommand | undefined {
  const commands = context.run.chatCommands();
  return commands.find((command) => command.name === name) ??
    commands.find((command) => command.name.toLowerCase() === name.toLowerCase());
}

/**
 * Runs a plugin's command (an MCP prompt: the server is asked, which the spinner shows and Esc
 * interrupts) and sends the turn it makes, as if the person had typed it.
 */
async function runPluginCommand(
  command: ChatCommand,
  argument: string,
  context: CommandContext,
): Promise<void> {
  const work = (signal: AbortSignal) => command.run(argument, signal);
  const outcome = context.request
    ? await context.request(work)
    : await work(new AbortController().signal);
  if (!outcome.ok) return context.print(escapeControlCharacters(outcome.error));
  await context.send(outcome.text);
}
