/**
 * A command a plugin offers in the chat, typed as `/name arguments` (the MCP plugin's server
 * prompts, `/mcp__<server>__<prompt>`). Running it makes the text of a user turn; the chat
 * sends that turn as if the person had typed it. Names, summaries and texts may be outside
 * text (a server's): the chat neutralises them where it shows them.
 *
 * @module
 */

/** What running a plugin's chat command gave: the user turn to send, or why there is none. */
export type ChatCommandOutcome =
  | { ok: true; text: string }
  | { ok: false; error: string };

/** Completions of the last word of a command's argument text. */
export interface ArgumentCompletion {
  /** Where the word being completed starts in the argument text. */
  start: number;
  /** What may replace it, as typed (quoted when it holds spaces). */
  values: string[];
}

/** A slash command a plugin adds to the chat. */
export interface ChatCommand {
  /** The word after the slash, e.g. `mcp__notes__summarise` (letters, digits, `_`, `-`). */
  name: string;
  /** One line for `/help` and the completion list. */
  summary: string;
  /** What may follow the name, e.g. `<city> [state]`; absent when it takes no argument. */
  argument?: string;
  /**
   * What the word being typed at the end of `argument` (the text after the name) may become,
   * for Tab in the chat's input box: the values to put in its place from index `start` of
   * `argument` on. Absent when the plugin cannot complete. Must not throw.
   */
  complete?(argument: string, signal: AbortSignal): Promise<ArgumentCompletion>;
  /** The user turn `argument` makes. Must not throw: failures are `{ ok: false }`. */
  run(argument: string, signal: AbortSignal): Promise<ChatCommandOutcome>;
}
