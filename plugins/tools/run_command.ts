/**
 * Runs one external program for a tool: in a process group of its own (so a timeout or an
 * interrupt kills everything it started), stdin from /dev/null, stdout and stderr captured up
 * to a bound. Arguments are an array, never a shell string.
 *
 * @module
 */
import { inNewProcessGroup, signalProcessGroup } from "../../core/mod.ts";
import { findOnPath } from "./find_program.ts";

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

interface Captured {
  bytes: Uint8Array;
  truncated: boolean;
}

/** Reads a stream in the background; `cancel` stops waiting for it. */
function capture(stream: ReadableStream<Uint8Array>, limit: number) {
  const reader = stream.getReader();
  const done = (async (): Promise<Captured> => {
    const chunks: Uint8Array[] = [];
    let kept = 0;
    let truncated = false;
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        if (kept >= limit) {
          truncated = true;
          continue;
        }
        const part = value.subarray(0, limit - kept);
        if (part.length < value.length) truncated = true;
        chunks.push(part);
        kept += part.length;
      }
    } catch {
      // Cancelled after the grace period: keep what arrived.
    }
    const bytes = new Uint8Array(kept);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return { bytes, truncated };
  })();
  return { done, cancel: () => reader.cancel().catch(() => {}) };
}

/** Runs the program to completion, timeout or interrupt. Never throws. */
export async function runCommand(spec: CommandSpec): Promise<CommandOutcome> {
  const [launcher, args] = inNewProcessGroup(spec.program, spec.args);
  // The launcher (setsid) is found on hel's own PATH, not on the PATH given to the program.
  const command = launcher === spec.program ? launcher : findOnPath(launcher) ?? launcher;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(command, {
      args,
      cwd: spec.cwd,
      env: spec.env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    return { kind: "not-started", message: `${spec.program}: ${(error as Error).message}` };
  }
  const pid = child.pid;
  let timedOut = false;
  let interrupted = false;
  const kill = () => signalProcessGroup(pid, "SIGKILL");
  const timer = spec.timeoutMs === undefined ? undefined : setTimeout(() => {
    timedOut = true;
    kill();
  }, spec.timeoutMs);
  const onAbort = () => {
    interrupted = true;
    kill();
  };
  spec.signal?.addEventListener("abort", onAbort, { once: true });
  if (spec.signal?.aborted) onAbort();

  const stdout = capture(child.stdout, CAPTURE_BYTES);
  const stderr = capture(child.stderr, CAPTURE_BYTES);
  const streams = Promise.all([stdout.done, stderr.done]);
  const status = await child.status;
  clearTimeout(timer);
  spec.signal?.removeEventListener("abort", onAbort);
  // Each call is a fresh shell: whatever it left running in its group goes with it.
  kill();
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((resolve) => {
    graceTimer = setTimeout(resolve, DRAIN_GRACE_MS);
  });
  // A process that left the group may still hold the pipes; stop waiting for it.
  const finished = await Promise.race([streams, grace.then(() => undefined)]);
  clearTimeout(graceTimer);
  let out: Captured;
  let err: Captured;
  if (finished) {
    [out, err] = finished;
  } else {
    await Promise.all([stdout.cancel(), stderr.cancel()]);
    [out, err] = await streams;
  }
  const decoder = new TextDecoder();
  return {
    kind: "finished",
    code: status.signal === null ? status.code : null,
    signal: status.signal,
    stdout: decoder.decode(out.bytes),
    stderr: decoder.decode(err.bytes),
    timedOut,
    interrupted,
    truncated: out.truncated || err.truncated,
  };
}
