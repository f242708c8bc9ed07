/**
 * `/init`: asks the model to look at the project and write a starter context file (`HEL.md`,
 * or the first `--context-file` name): what the project is, how to build and test it, its
 * conventions. The request is a user turn, sent as if typed; its text is `init_prompt.txt`.
 *
 * @module
 */
import prompt from "./init_prompt.txt" with { type: "text" };
import { escapeControlCharacters } from "../../../core/neutralise.ts";
import type { SlashCommand } from "../slash_commands.ts";

/** The file `/init` asks for when the run reads none (`--no-context-file`). */
const DEFAULT_FILE = "HEL.md";

/** The prompt `/init` sends for context file `file`. */
export function initPrompt(file: string): string {
  return prompt.trim().replaceAll("{{file}}", file);
}

export const initCommand: SlashCommand = {
  name: "init",
  summary: "ask the model to write a starter HEL.md for this project",
  async run(context) {
    const file = (context.run.contextFile || [])[0] ?? DEFAULT_FILE;
    const note = context.run.contextFile === false
      ? ` (this run reads no context file: --no-context-file)`
      : "; hel reads it from the next session on (/clear)";
    context.print(`asking the model to write ${escapeControlCharacters(file)}${note}`);
    await context.send(initPrompt(file));
  },
};
