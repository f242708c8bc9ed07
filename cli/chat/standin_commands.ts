/**
 * TEMPORARY stand-in for cli/chat/slash_commands.ts (being written on branch tui-commands),
 * with the contract's types and only /help and /exit. Deleted once the real one lands on main.
 *
 * @module
 */
import type { Run } from "../../agent/run.ts";
import type { SessionRules } from "./session_rules.ts";

/** What a command may do in the chat (contract). */
export interface CommandContext {
  run: Run;
  rules: SessionRules;
  print(text: string): void;
  pick<T>(title: string, items: { label: string; value: T }[]): Promise<T | undefined>;
  send(prompt: string): Promise<void>;
  exit(): void;
  clearScreen(): void;
}

/** A slash command (contract). */
export interface SlashCommand {
  name: string;
  summary: string;
  run(context: CommandContext, argument: string): Promise<void>;
}

/** The commands. */
export const slashCommands: readonly SlashCommand[] = [
  {
    name: "help",
    summary: "list the commands and keys",
    run: (context) => {
      context.print(slashCommands.map((c) => `/${c.name}  ${c.summary}`).join("\n"));
      return Promise.resolve();
    },
  },
  {
    name: "exit",
    summary: "leave hel",
    run: (context) => {
      context.exit();
      return Promise.resolve();
    },
  },
];
