/**
 * The output layer: every byte hel writes to stdout or stderr goes through here. Text is
 * neutralised on the way (see {@link neutralise}), whoever wrote it, so a model answer, a tool
 * name in an error, an HTTP error body or a damaged session file cannot drive the terminal;
 * the only terminal controls hel emits are its own, written by {@link beginQuestion}, the
 * status line ({@link writeStatus}) and the chat's renderer ({@link writeFrame}).
 * `--raw-output` keeps the bytes of the one-shot answer ({@link writeRawOut}). While the
 * full-screen chat draws the terminal, text written here goes to its transcript instead
 * ({@link divertOutput}), so nothing tears its frame. On a terminal one line of stderr can be
 * a status that later output replaces ({@link writeStatus}): a retry that waits, not a pile.
 *
 * @module
 */
import { neutralise } from "../core/neutralise.ts";
import { surroundings } from "./surroundings.ts";

const encoder = new TextEncoder();

/** True while streamed answer text on stdout has not ended its line. */
let streamedMidLine = false;

/** True while a status line ({@link writeStatus}) stands on stderr without its newline. */
let statusShown = false;

/** Carriage return and erase line: back to the start of a status line, blank. */
const ERASE_LINE = "\r\x1b[2K";

/** Where text goes instead of stdout and stderr while the chat draws the terminal. */
let diversion: ((text: string) => void) | undefined;

/**
 * Sends what {@link writeErr} and {@link writeOut} are given to `sink` (neutralised) until the
 * returned function is called: the Ink chat owns the terminal and shows such text (a plugin's
 * warning, a log line) in its transcript rather than letting it tear the frame it draws.
 */
export function divertOutput(sink: (text: string) => void): () => void {
  diversion = sink;
  return () => {
    if (diversion === sink) diversion = undefined;
  };
}

/**
 * Writes a frame drawn by the chat's renderer (Ink) to stdout as it is: hel's own cursor
 * moves, colours and boxes around text the chat store neutralised when it took it in (see
 * cli/chat/store.ts), so the frame's only controls are hel's.
 */
export function writeFrame(text: string): void {
  surroundings().stdout.writeSync(encoder.encode(text));
}

/**
 * Writes text to stderr without a newline. Streamed answer text that has not ended its line
 * is ended first, so a `[tool]` line or a warning starts on a line of its own on the
 * terminal instead of being glued to "Let me look." and the next answer.
 */
export function writeErr(text: string): void {
  if (diversion) return diversion(neutralise(text));
  clearStatus();
  if (streamedMidLine) writeOut("\n");
  surroundings().stderr.writeSync(encoder.encode(neutralise(text)));
}

/** Writes text to stdout without a newline. */
export function writeOut(text: string): void {
  if (diversion) return diversion(neutralise(text));
  writeRawOut(neutralise(text));
}

/**
 * Writes text to stdout as it is: only for `--raw-output`, which the person asked for, and
 * never on the way to a question.
 */
export function writeRawOut(text: string): void {
  clearStatus();
  surroundings().stdout.writeSync(encoder.encode(text));
  if (text !== "") streamedMidLine = false;
}

/**
 * Writes a piece of streamed answer text to stdout (see {@link writeErr}). Each piece is
 * neutralised alone; that is enough because no control character survives, so an escape
 * sequence split across two pieces has lost its ESC either way.
 */
export function writeStreamed(text: string): void {
  writeOut(text);
  if (text !== "") streamedMidLine = !text.endsWith("\n");
}

/** SGR reset (no concealed, coloured or blinking text) and a visible cursor. */
export const TERMINAL_RESET = "\x1b[0m\x1b[?25h";

/**
 * Prepares stderr for a question hel draws: ends a streamed line, and on a terminal resets
 * the text attributes and shows the cursor at the start of the line, so whatever was printed
 * before (even by a program that wrote to the terminal directly) cannot hide or disguise it.
 */
export function beginQuestion(): void {
  clearStatus();
  if (streamedMidLine) writeOut("\n");
  const stderr = surroundings().stderr;
  if (stderr.isTerminal()) stderr.writeSync(encoder.encode(`${TERMINAL_RESET}\r`));
}

/**
 * Shows `text` (one line, neutralised; the caller fits it to the terminal's width) as the
 * status line on stderr, a terminal: it replaces the status shown before, and the next text
 * written anywhere here erases it first ({@link clearStatus}). Off a terminal, or while the
 * chat draws, it is an ordinary line of {@link writeErr}.
 */
export function writeStatus(text: string): void {
  const stderr = surroundings().stderr;
  const line = neutralise(text).replace(/\n/g, " ");
  if (diversion || !stderr.isTerminal()) return writeErr(`${line}\n`);
  if (streamedMidLine) writeOut("\n");
  stderr.writeSync(encoder.encode(`${ERASE_LINE}${line}`));
  statusShown = true;
}

/** Erases the status line, if one is shown; hel calls it before it exits too. */
export function clearStatus(): void {
  if (!statusShown) return;
  statusShown = false;
  surroundings().stderr.writeSync(encoder.encode(ERASE_LINE));
}
