/**
 * Runs one external program for a tool, through the core's child runner: in a process group of
 * its own (so a timeout or an interrupt kills everything it started), stdin from /dev/null,
 * stdout and stderr captured up to a bound. Arguments are an array, never a shell string.
 *
 * @module
 */
import { runChild } from "../../../kit/mod.ts";

/** Bytes kept per stream; the rest is read and dropped so the program never blocks. */
export const CAPTURE_BYTES = 16 * 1024 * 1024;
/** How long to wait for pipes to close after the program and its group are gone. */
const DRAIN_GRACE_MS = 1_000;

/** What to run. */
export interface CommandSpec {
  program: string;
  args: readonly string[];
  cwd: string;
  /** The complete environment (nothing else is inherited). */
  env: Record<string, string>;
  /** Wall-clock bound; the group is killed when it passes. */
  timeoutMs?: number;
  /** Aborting kills the group (the user interrupted the run). */
  signal?: AbortSignal;
  /** Hears stdout and stderr as they arrive (see `ChildSpec.onOutput`). */
  onOutput?(text: string): void;
}

/** How a program ended. */
export type CommandOutcome =
  | {
    kind: "finished";
    /** Exit code, or null when a signal ended it. */
    code: number | null;
    signal: string | null;
    stdout: string;
    stderr: string;
    timedOut: boolean;
    interrupted: boolean;
    /** A stream went over {@link CAPTURE_BYTES}; its tail was dropped. */
    truncated: boolean;
  }
  | { kind: "not-started"; message: string };

/** Runs the program to completion, timeout or interrupt. Never throws. */
export async function runCommand(spec: CommandSpec): Promise<CommandOutcome> {
  const outcome = await runChild({
    ...spec,
    captureBytes: CAPTURE_BYTES,
    onOverflow: "drop",
    drainGraceMs: DRAIN_GRACE_MS,
  });
  if (outcome.kind === "not-started") {
    return { kind: "not-started", message: `${spec.program}: ${outcome.message}` };
  }
  const { stops, ...rest } = outcome;
  return {
    ...rest,
    timedOut: stops.includes("timeout"),
    interrupted: stops.includes("interrupted"),
  };
}
