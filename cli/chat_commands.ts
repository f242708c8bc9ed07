/**
 * The slash commands in the plain line chat (the chat for `TERM=dumb`, a small or no
 * full-screen terminal): the chat's commands (cli/chat/slash_commands.ts) with what this chat
 * can give them — lines on stdout, a numbered list read back as a number for `/resume`'s
 * picker, Ctrl-C to interrupt `/compact`, no "don't ask again" rules (every call is asked).
 *
 * @module
 */
import type { Interrupts } from "./chat.ts";
import type { Run } from "../agent/run.ts";
import { writeOut } from "../kit/output.ts";
import type { LineReader } from "./terminal.ts";
import { runSlashCommand } from "./chat/slash_commands.ts";

/** What the plain chat lends its commands. */
export interface PlainChat {
  run: Run;
  reader: LineReader;
  /** Runs a user turn, as if `text` had been typed. */
  send(text: string): Promise<void>;
  exit(): void;
}

/** The plain chat's commands. */
export interface ChatCommands {
  /** Runs `text` when it is a command line (true), else leaves it for the model (false). */
  handle(text: string, chat: PlainChat): Promise<boolean>;
}

/** The plain chat's keys, as `/help` lists them. */
export const PLAIN_KEYS: readonly (readonly [string, string])[] = [
  ["Enter", "send the line (a pasted block is one message)"],
  ["Ctrl-C", "interrupt hel; at the prompt: leave"],
  ["Ctrl-D", "leave"],
];

/**
 * Shows `items` numbered (under `header`, aligned with the labels, when given) and reads the
 * number chosen; anything else cancels.
 */
export async function pickByNumber<T>(
  reader: LineReader,
  title: string,
  items: { label: string; value: T }[],
  header?: string,
): Promise<T | undefined> {
  const digits = String(items.length).length;
  const list = items.map((item, index) => `  ${String(index + 1).padStart(digits)}. ${item.label}`);
  if (header !== undefined) list.unshift(`  ${" ".repeat(digits + 2)}${header}`);
  writeOut(`${title}\n${list.join("\n")}\nnumber (Enter to cancel): `);
  const chosen = Number((await reader.readLine())?.trim() || Number.NaN);
  return Number.isInteger(chosen) ? items[chosen - 1]?.value : undefined;
}

/** The commands; `interrupts` lets Ctrl-C stop a request a command makes. */
export function chatCommands(interrupts: Interrupts): ChatCommands {
  return {
    handle: (text, chat) =>
      runSlashCommand(text, {
        run: chat.run,
        rules: { list: () => [], remove: () => undefined },
        print: (line) => writeOut(`${line}\n`),
        pick: (title, items) => pickByNumber(chat.reader, title, items),
        send: chat.send,
        exit: chat.exit,
        // A line chat has no screen of its own to clear.
        clearScreen: () => {},
        async request(work) {
          try {
            return await work(interrupts.next());
          } finally {
            interrupts.idle();
          }
        },
        keys: PLAIN_KEYS,
      }),
  };
}
