/**
 * Which chat a terminal gets: the Ink chat when a person is at a real terminal big enough to
 * draw it, else the plain line chat (`TERM=dumb`, a terminal too small, input or output not a
 * terminal). And whether it is drawn in colour (`NO_COLOR` and `TERM=dumb` turn colour off).
 *
 * @module
 */
import { surroundings } from "../../kit/surroundings.ts";
import type { TerminalSize } from "./ink_stdout.ts";

/** The smallest terminal the Ink chat is drawn on. */
export const MIN_SIZE: TerminalSize = { columns: 40, rows: 10 };

/** What decides the chat's mode. */
export interface TerminalFacts {
  stdinIsTerminal: boolean;
  stdoutIsTerminal: boolean;
  term: string | undefined;
  size: TerminalSize | undefined;
}

/** "ink" or "plain"; see the module comment. */
export function chatMode(facts: TerminalFacts): "ink" | "plain" {
  if (!facts.stdinIsTerminal || !facts.stdoutIsTerminal || facts.term === "dumb") return "plain";
  const size = facts.size;
  if (!size || size.columns < MIN_SIZE.columns || size.rows < MIN_SIZE.rows) return "plain";
  return "ink";
}

/** Colour unless `NO_COLOR` is set to anything (no-color.org) or `TERM` is `dumb`. */
export function colorWanted(env: (name: string) => string | undefined): boolean {
  const noColor = env("NO_COLOR");
  return (noColor === undefined || noColor === "") && env("TERM") !== "dumb";
}

/** The terminal's size now, or undefined when stdout is no terminal. */
export function terminalSize(): TerminalSize | undefined {
  try {
    return Deno.consoleSize();
  } catch {
    return undefined;
  }
}

/** The facts of this process's terminal. */
export function terminalFacts(): TerminalFacts {
  const around = surroundings();
  return {
    stdinIsTerminal: around.stdin.isTerminal(),
    stdoutIsTerminal: around.stdout.isTerminal(),
    term: around.env("TERM"),
    size: around.stdout.isTerminal() ? terminalSize() : undefined,
  };
}
