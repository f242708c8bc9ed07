/**
 * Text piped to hel when stdin is not a terminal: the instruction itself when none is given
 * (`echo "fix the typo" | hel`), or material that goes with it (`git diff | hel "review
 * this"`), which the model receives after the instruction inside `<stdin>` tags.
 *
 * @module
 */
import { UsageError } from "../core/usage_error.ts";
import { groupDigits } from "../core/text.ts";
import type { LineReader } from "./terminal.ts";
import { surroundings } from "../kit/surroundings.ts";

/**
 * The most piped text hel takes (about 50,000 tokens): beyond it the text is better read in
 * pages by the model than sent whole with every request of the run.
 */
export const MAX_PIPED_CHARS = 200_000;
/** How long stdin may stay silent before hel says it is waiting for it. */
const NOTICE_AFTER_MS = 3_000;

/**
 * The instruction to run: `instruction` with what was piped added, the piped text alone when
 * there is no instruction, or `instruction` unchanged on a terminal. Undefined means the chat.
 * A program that leaves stdin open without writing would make hel wait for ever in silence,
 * so after a few seconds hel says what it is waiting for.
 */
export async function withPipedInput(
  instruction: string | undefined,
  reader: LineReader,
  notice: (text: string) => void,
): Promise<string | undefined> {
  if (surroundings().stdin.isTerminal()) return instruction;
  const timer = setTimeout(
    () =>
      notice(
        instruction === undefined
          ? "hel: reading the instruction from standard input until it ends; give the " +
            "instruction as words instead, with </dev/null\n"
          : "hel: waiting for standard input to end (it goes to the model with the " +
            "instruction); run hel with </dev/null to give none\n",
      ),
    NOTICE_AFTER_MS,
  );
  let piped: { text: string; complete: boolean };
  try {
    piped = await reader.readRest(MAX_PIPED_CHARS);
  } finally {
    clearTimeout(timer);
  }
  if (!piped.complete) {
    throw new UsageError(
      `standard input has more than ${groupDigits(MAX_PIPED_CHARS)} characters, ` +
        "more than hel sends in one message. Save it to a file in the project and name the " +
        "file in the instruction: the model reads large files in pages",
    );
  }
  const text = piped.text.trim();
  if (instruction === undefined) return text;
  if (text === "") return instruction;
  return `${instruction}\n\n<stdin>\n${piped.text.replace(/\n$/, "")}\n</stdin>`;
}
