/**
 * The two ways to talk to a run: one instruction (the final answer alone on stdout), or an
 * interactive chat on a terminal (`> ` prompt, slash commands, `/exit` or Ctrl-D to quit).
 *
 * @module
 */
import type { LoopOutcome } from "../core/loop.ts";
import type { RunUsage } from "../core/usage.ts";
import { groupDigits } from "../core/text.ts";
import type { Run } from "../agent/run.ts";
import { writeErr, writeOut, writeRawOut, writeStreamed } from "../kit/output.ts";
import type { LineReader } from "./terminal.ts";
import { type ChatCommands, chatCommands, type PlainChat } from "./chat_commands.ts";
import type { RunReporter } from "./output/reporter.ts";

/** Exit codes: 0 completed, 1 the run ended in error, 130 interrupted. */
export function exitCodeFor(outcome: LoopOutcome): number {
  if (outcome.termination === "completed") return 0;
  return outcome.termination === "interrupted" ? 130 : 1;
}

function reportProblem(outcome: LoopOutcome): void {
  if (outcome.termination === "completed" || outcome.error === null) return;
  writeErr(`hel: ${outcome.error}\n`);
}

/** Lines that follow one another within this many milliseconds were pasted together. */
const PASTE_GAP_MS = 30;

/** Interrupts: the first Ctrl-C aborts the request in flight. */
export interface Interrupts {
  /** A fresh signal for the next user turn; marks a request as in flight. */
  next(): AbortSignal;
  /** Marks that no request is in flight (the chat waits for input). */
  idle(): void;
}

/**
 * Runs one instruction and prints the final answer alone on stdout: neutralised, or as the
 * model sent it when `rawOutput` (`--raw-output`). With a `reporter` (`--output-format json`
 * or `stream-json`) stdout is the report's instead, and the usage line is in its result.
 */
export async function runOneShot(
  run: Run,
  instruction: string,
  interrupts: Interrupts,
  rawOutput = false,
  reporter?: RunReporter,
): Promise<number> {
  const outcome = await run.turn(instruction, interrupts.next(), reporter?.stream);
  if (reporter) {
    reportProblem(outcome);
    reporter.finished(outcome);
    return exitCodeFor(outcome);
  }
  const write = rawOutput ? writeRawOut : writeOut;
  if (outcome.finalText !== null) write(outcome.finalText.trimEnd() + "\n");
  reportProblem(outcome);
  printUsage(run.usage);
  return exitCodeFor(outcome);
}

/**
 * Prints the usage line, unless the server never answered: then every figure would be `?`
 * and the line would only bury the error above it.
 */
function printUsage(usage: RunUsage): void {
  if (usage.answeredCalls > 0) writeErr(`${usageLine(usage)}\n`);
}

/** Formats the usage line printed on stderr after each turn, one-shot or interactive. */
export function usageLine(usage: RunUsage): string {
  const n = (value: number | undefined) => value === undefined ? "?" : groupDigits(value);
  const calls = `${usage.modelCalls} model call${usage.modelCalls === 1 ? "" : "s"}`;
  return `[usage: ${calls} · input ${n(usage.inputTokens)} · ` +
    `output ${n(usage.outputTokens)} · cached ${n(usage.cachedTokens)}]`;
}

/** Runs one user turn of the chat: the answer streamed to stdout, then the usage line. */
async function chatTurn(run: Run, text: string, interrupts: Interrupts): Promise<void> {
  let streamed = false;
  const outcome = await run.turn(text, interrupts.next(), {
    onText: (delta) => {
      streamed = true;
      writeStreamed(delta);
    },
  });
  interrupts.idle();
  if (!streamed && outcome.finalText) writeOut(outcome.finalText);
  writeOut("\n");
  reportProblem(outcome);
  printUsage(run.usage);
}

/** The interactive chat; returns the exit code when the person leaves. */
export async function runChat(
  run: Run,
  reader: LineReader,
  interrupts: Interrupts,
  commands: ChatCommands = chatCommands(interrupts),
): Promise<number> {
  writeErr("hel — type /exit or press Ctrl-D to quit, /help for the commands\n");
  interrupts.idle();
  let leaving = false;
  const chat: PlainChat = {
    run,
    reader,
    send: (text) => chatTurn(run, text, interrupts),
    exit: () => void (leaving = true),
  };
  while (!leaving) {
    writeOut("> ");
    const line = await reader.readLine();
    if (line === undefined) {
      writeOut("\n");
      return 0;
    }
    // A pasted block (a stack trace, a diff) arrives all at once: it is one message, not one
    // turn per line. Lines typed by hand are never this close together.
    const lines = [line];
    for (
      let more = await reader.readLine(AbortSignal.timeout(PASTE_GAP_MS));
      more !== undefined;
      more = await reader.readLine(AbortSignal.timeout(PASTE_GAP_MS))
    ) {
      lines.push(more);
    }
    const text = lines.join("\n").trim();
    if (text === "") continue;
    // A command line (or a mistyped one: "/exti") is never sent to the model as a message.
    if (await commands.handle(text, chat)) continue;
    await chatTurn(run, text, interrupts);
  }
  return 0;
}
