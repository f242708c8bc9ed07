/**
 * Completion of slash commands in the input box: while the box holds only `/` and the start of
 * a name, the commands that match are listed and Tab completes their common start.
 *
 * @module
 */
import type { ArgumentCompletion } from "../../core/chat_command.ts";

/**
 * A command as the input box lists it: its name (with or without the `/`) and what it does,
 * and for a plugin's command (an MCP prompt) how its arguments complete.
 */
export interface CommandInfo {
  readonly name: string;
  readonly summary: string;
  complete?(argument: string, signal: AbortSignal): Promise<ArgumentCompletion>;
}

/** The commands, or where to get them as they are now (a plugin's may change during a run). */
export type CommandSource = readonly CommandInfo[] | (() => readonly CommandInfo[]);

/** The commands of `source` now. */
export function currentCommands(source: CommandSource): readonly CommandInfo[] {
  return typeof source === "function" ? source() : source;
}

const bare = (name: string) => name.replace(/^\//, "");

/**
 * What is being typed as a command name: the text after `/` when the box holds a `/` and
 * nothing else but name characters; undefined otherwise (text, or a command with arguments).
 */
export function commandPrefix(text: string): string | undefined {
  const match = /^\/(\S*)$/.exec(text);
  return match?.[1];
}

/** The commands whose name starts with what is typed after `/`, in the order given. */
export function matchingCommands(
  text: string,
  commands: readonly CommandInfo[],
): readonly CommandInfo[] {
  const prefix = commandPrefix(text)?.toLowerCase();
  if (prefix === undefined) return [];
  return commands.filter((command) => bare(command.name).toLowerCase().startsWith(prefix));
}

function commonStart(names: readonly string[]): string {
  let common = names[0] ?? "";
  for (const name of names) {
    while (!name.toLowerCase().startsWith(common.toLowerCase())) common = common.slice(0, -1);
  }
  return common;
}

/**
 * What Tab makes of `text`: the one matching command's name and a space, or the start the
 * matching names share when it is longer than what is typed; undefined when Tab adds nothing.
 */
export function completeCommand(
  text: string,
  commands: readonly CommandInfo[],
): string | undefined {
  const matches = matchingCommands(text, commands);
  if (matches.length === 1) return `/${bare(matches[0]!.name)} `;
  const common = commonStart(matches.map((command) => bare(command.name)));
  return common.length > (commandPrefix(text)?.length ?? 0) ? `/${common}` : undefined;
}

/**
 * What Enter sends for `text`: a command typed in part (`/res`) is sent as the one command it
 * can only be (`/resume`); anything else as it is.
 */
export function commandToSend(text: string, commands: readonly CommandInfo[]): string {
  const prefix = commandPrefix(text);
  if (prefix === undefined || prefix === "") return text;
  const names = commands.map((command) => bare(command.name));
  if (names.includes(prefix)) return text;
  const matches = matchingCommands(text, commands);
  return matches.length === 1 ? `/${bare(matches[0]!.name)}` : text;
}

/**
 * The command whose argument is being typed in `text` (`/mcp__s__greet Al`) and that argument,
 * when the command can complete it; undefined otherwise.
 */
export function argumentBeingTyped(
  text: string,
  commands: readonly CommandInfo[],
): { command: CommandInfo; name: string; argument: string } | undefined {
  const match = /^\/(\S+)\s([\s\S]*)$/.exec(text);
  if (!match || match[2]!.includes("\n")) return undefined;
  const command = commands.find((item) => bare(item.name) === match[1]);
  if (!command?.complete) return undefined;
  return { command, name: match[1]!, argument: match[2]! };
}

/**
 * What the box holds after an argument completion: the one value in place of the word being
 * typed (and a space), or the start all values share when it is longer than that word; the
 * text unchanged otherwise.
 */
export function completedArgument(
  name: string,
  argument: string,
  completion: ArgumentCompletion,
): string {
  const head = `/${name} ${argument.slice(0, completion.start)}`;
  const word = argument.slice(completion.start);
  const { values } = completion;
  if (values.length === 1) return `${head}${values[0]} `;
  const common = commonStart(values);
  return common.length > word.length ? `${head}${common}` : `/${name} ${argument}`;
}
