/**
 * What the chat shows while hel waits for the model: a spinner, the time since the request
 * began, the answer's tokens so far when known, and how to interrupt.
 *
 * @module
 */
import { Text } from "ink";
import { paint } from "./paint.ts";
import { count } from "./commands/format.ts";

/** Braille spinner frames, one every {@link FRAME_MS}. */
export const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] as const;
/** How long each spinner frame shows. */
export const FRAME_MS = 80;

/** Props of {@link Working}. */
export interface WorkingProps {
  /** When the request began (ms since the epoch). */
  startedAt: number;
  /** The current time (ms since the epoch); the owner ticks it to animate the spinner. */
  now: number;
  /** Answer tokens so far; undefined when the server has not said (nothing is shown then). */
  outputTokens: number | undefined;
  /** What the wait is for besides the answer: a retry (`<cause>; retry 2 of 4 in 2 s`). */
  note?: string;
  color: boolean;
}

/** The spinner frame for a wait that has lasted `elapsedMs`. */
export function spinnerFrame(elapsedMs: number): string {
  const index = Math.floor(Math.max(0, elapsedMs) / FRAME_MS) % SPINNER_FRAMES.length;
  return SPINNER_FRAMES[index]!;
}

/** `12s`, `1m 05s`, `2h 03m`: a wait as a person reads it. */
export function formatElapsed(elapsedMs: number): string {
  const seconds = Math.floor(Math.max(0, elapsedMs) / 1000);
  const two = (value: number) => String(value).padStart(2, "0");
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${two(seconds % 60)}s`;
  return `${Math.floor(minutes / 60)}h ${two(minutes % 60)}m`;
}

/**
 * The waiting line: `⠋ Working… 12s · ↓ 1,234 tokens · esc to interrupt`, with the retry
 * waited for before the key: `⠋ Working… 3s · HTTP 503: busy; retry 1 of 4 in 1 s · esc …`.
 */
export function Working({ startedAt, now, outputTokens, note, color }: WorkingProps) {
  const elapsed = now - startedAt;
  const details = [
    formatElapsed(elapsed),
    ...outputTokens === undefined ? [] : [`↓ ${count(outputTokens, "token")}`],
    ...note === undefined ? [] : [note],
    "esc to interrupt",
  ].join(" · ");
  return (
    <Text wrap="truncate-end">
      <Text {...paint(color, { color: "cyan" })}>{spinnerFrame(elapsed)}</Text>{" "}
      <Text {...paint(color, { bold: true })}>Working…</Text>
      <Text {...paint(color, { dimColor: true })}>{` ${details}`}</Text>
    </Text>
  );
}
