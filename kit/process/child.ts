/**
 * Running one external program to completion for a plugin (a tool's command, a hook): in a
 * process group of its own, with only the environment given, stdout and stderr captured up to
 * a bound. A timeout or an abort kills the whole group, and so does the program's own exit, so
 * nothing it left running in the background outlives it or holds its pipes open.
 *
 * @module
 */
import { errorMessage } from "../../core/errors.ts";
import { concatBytes } from "../bytes.ts";
import { inNewProcessGroup, signalProcessGroup } from "./group.ts";

/** What to run and how to bound it. */
export interface ChildSpec {
  program: string;
  args: readonly string[];
  cwd: string;
  /** The complete environment (nothing else is inherited). */
  env: Record<string, string>;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  stdin?: string;
  /** Bytes kept of each of stdout and stderr. */
  captureBytes: number;
  /**
   * Past `captureBytes`, "kill" stops the group; "drop" reads on and discards the rest, so the
   * program never blocks on a full pipe.
   */
  onOverflow: "kill" | "drop";
  /** Wall-clock bound; the group is killed when it passes. */
  timeoutMs?: number;
  /** Aborting kills the group (the user interrupted the run); if already aborted, nothing starts. */
  signal?: AbortSignal;
  /** How long to wait for the pipes to close once the group is gone. */
  drainGraceMs: number;
  /** Holds the group's pid while the program runs, so an owner can kill every running group. */
  running?: Set<number>;
  /**
   * Hears stdout and stderr as they arrive, for a person to watch: UTF-8 decoded per stream
   * (a character split between two reads waits for its end), and only what is kept within
   * `captureBytes`. The captured text is the same with or without it. Should not throw; a throw
   * is ignored.
   */
  onOutput?(text: string): void;
}

/** Why hel stopped a program before it exited by itself. */
export type ChildStop = "timeout" | "interrupted" | "stdout-overflow" | "stderr-overflow";

/** How a program ended. */
export type ChildOutcome =
  | {
    kind: "finished";
    /** Exit code, or null when a signal ended it. */
    code: number | null;
    signal: Deno.Signal | null;
    stdout: string;
    stderr: string;
    /** Why hel stopped it, in the order it happened; empty when it exited by itself. */
    stops: ChildStop[];
    /** A stream went over `captureBytes`; what came after was not kept. */
    truncated: boolean;
  }
  | { kind: "not-started"; message: string };

/** Runs the program to completion, timeout or abort. Never throws. */
export async function runChild(spec: ChildSpec): Promise<ChildOutcome> {
  if (spec.signal?.aborted) return finished(null, null, "", "", ["interrupted"], false);
  // The launcher (setsid) comes from a system folder, never from the program's PATH.
  const [command, args] = inNewProcessGroup(spec.program, spec.args);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(command, {
      args,
      cwd: spec.cwd,
      env: spec.env,
      clearEnv: true,
      stdin: spec.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    return { kind: "not-started", message: errorMessage(error) };
  }
  const pid = child.pid;
  spec.running?.add(pid);
  const stops: ChildStop[] = [];
  const stop = (why: ChildStop) => {
    if (!stops.includes(why)) stops.push(why);
    signalProcessGroup(pid, "SIGKILL");
  };
  const overflow = (why: ChildStop) => spec.onOverflow === "kill" ? () => stop(why) : undefined;
  const stdout = capture(
    child.stdout,
    spec.captureBytes,
    overflow("stdout-overflow"),
    spec.onOutput,
  );
  const stderr = capture(
    child.stderr,
    spec.captureBytes,
    overflow("stderr-overflow"),
    spec.onOutput,
  );
  const feeding = spec.stdin === undefined ? undefined : feed(child.stdin, spec.stdin);
  const timer = spec.timeoutMs === undefined
    ? undefined
    : setTimeout(() => stop("timeout"), spec.timeoutMs);
  const onAbort = () => stop("interrupted");
  spec.signal?.addEventListener("abort", onAbort, { once: true });

  const status = await child.status;
  clearTimeout(timer);
  spec.signal?.removeEventListener("abort", onAbort);
  // Whatever the program left running in its group goes with it.
  signalProcessGroup(pid, "SIGKILL");
  spec.running?.delete(pid);
  await settleWithin([stdout.done, stderr.done, ...feeding ? [feeding] : []], spec.drainGraceMs);
  // A process that left the group may still hold a pipe: stop reading.
  await Promise.all([stdout.cancel(), stderr.cancel()]);
  return finished(
    status.signal === null ? status.code : null,
    status.signal,
    stdout.text(),
    stderr.text(),
    stops,
    stdout.truncated() || stderr.truncated(),
  );
}

function finished(
  code: number | null,
  signal: Deno.Signal | null,
  stdout: string,
  stderr: string,
  stops: ChildStop[],
  truncated: boolean,
): ChildOutcome {
  return { kind: "finished", code, signal, stdout, stderr, stops, truncated };
}

interface Capture {
  /** Settles when the stream ended (or failed). */
  done: Promise<void>;
  text(): string;
  truncated(): boolean;
  cancel(): Promise<void>;
}

/**
 * Reads a stream in the background, keeping at most `limit` bytes and telling `onText` what it
 * keeps as it arrives.
 */
function capture(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  onOverflow: (() => void) | undefined,
  onText: ((text: string) => void) | undefined,
): Capture {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  const live = onText ? liveText(onText) : undefined;
  let kept = 0;
  let truncated = false;
  let ended = false;
  const done = (async () => {
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        if (truncated) continue; // drain and discard
        const part = value.subarray(0, limit - kept);
        chunks.push(part);
        kept += part.length;
        live?.push(part);
        if (part.length < value.length) {
          truncated = true;
          onOverflow?.();
        }
      }
    } catch {
      // A cancelled or broken pipe ends the capture; what was read is kept.
    } finally {
      ended = true;
      live?.end();
    }
  })();
  return {
    done,
    text() {
      return new TextDecoder().decode(concatBytes(chunks));
    },
    truncated: () => truncated,
    async cancel() {
      if (ended) return;
      await reader.cancel().catch(() => {});
      await done;
    },
  };
}

/** Decodes a stream's bytes for a listener, holding back an incomplete last character. */
function liveText(onText: (text: string) => void) {
  const decoder = new TextDecoder();
  const tell = (text: string) => {
    if (text === "") return;
    try {
      onText(text);
    } catch {
      // A watcher's fault must not cost the capture the model gets.
    }
  };
  return {
    push: (bytes: Uint8Array) => tell(decoder.decode(bytes, { stream: true })),
    /** Whatever was held back, shown as it is (a replacement character for a cut one). */
    end: () => tell(decoder.decode()),
  };
}

async function feed(stdin: WritableStream<Uint8Array>, text: string): Promise<void> {
  const writer = stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch {
    // The program need not read its input; a closed pipe is not an error.
    await writer.abort().catch(() => {});
  }
}

/** Waits until every promise has settled (fulfilled or rejected), or `ms` has passed. */
export async function settleWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.allSettled(promises),
    new Promise<void>((resolve) => timer = setTimeout(resolve, ms)),
  ]);
  clearTimeout(timer);
}
