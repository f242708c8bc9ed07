/**
 * Running one hook command: `/bin/sh -c <command>` in the project, as the leader of its own
 * process group, with a JSON payload on stdin and stdout/stderr captured up to 1 MiB each.
 * A timeout or a capture overflow kills the whole group; when the shell exits, whatever it
 * left running in its group is stopped too, so a stray background job cannot hold hel up.
 *
 * @module
 */
import { inNewProcessGroup, signalProcessGroup } from "../../core/mod.ts";

/** Bytes kept of each of stdout and stderr. */
export const CAPTURE_LIMIT_BYTES = 1024 * 1024;

/** How long to wait for the output pipes to close after the group was stopped. */
const PIPE_GRACE_MS = 2_000;

/** One command to run. */
export interface CommandSpec {
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** Written to the command's stdin, which is then closed. */
  stdin: string;
  timeoutSeconds: number;
  /** Aborting stops the command's whole group (the user interrupted the run). */
  signal?: AbortSignal;
}

/** How a command ended. `failure` is set when hel stopped it or could not start it. */
export interface CommandResult {
  /** The exit code, or null when the shell did not exit by itself. */
  code: number | null;
  /** The signal that ended the shell, if any. */
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Why hel stopped the command or could not run it (timeout, capture limit, spawn error). */
  failure?: string;
  durationMs: number;
}

/** Runs commands and remembers which are running, so `stopAll` can end them. */
export interface CommandRunner {
  run(spec: CommandSpec): Promise<CommandResult>;
  /** Kills every running command's process group (on shutdown). */
  stopAll(): void;
}

/** Creates a runner. */
export function createCommandRunner(): CommandRunner {
  const running = new Set<number>();
  return {
    run: (spec) => runCommand(spec, running),
    stopAll() {
      for (const pid of running) signalProcessGroup(pid, "SIGKILL");
    },
  };
}

async function runCommand(spec: CommandSpec, running: Set<number>): Promise<CommandResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (spec.signal?.aborted) {
    return { ...empty(), failure: INTERRUPTED, durationMs: 0 };
  }
  const [program, args] = inNewProcessGroup("/bin/sh", ["-c", spec.command]);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      cwd: spec.cwd,
      env: spec.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    return {
      ...empty(),
      failure: `could not start /bin/sh: ${(error as Error).message}`,
      durationMs: elapsed(),
    };
  }
  const pid = child.pid;
  running.add(pid);
  let failure: string | undefined;
  const stop = (why: string) => {
    failure ??= why;
    signalProcessGroup(pid, "SIGKILL");
  };
  const stdout = capture(child.stdout, () => stop("its stdout exceeded the 1 MiB capture limit"));
  const stderr = capture(child.stderr, () => stop("its stderr exceeded the 1 MiB capture limit"));
  const feeding = feed(child.stdin, spec.stdin);
  const timer = setTimeout(
    () => stop(`timed out after ${spec.timeoutSeconds} seconds`),
    spec.timeoutSeconds * 1000,
  );
  const onAbort = () => stop(INTERRUPTED);
  spec.signal?.addEventListener("abort", onAbort);
  let status: Deno.CommandStatus;
  try {
    status = await child.status;
  } finally {
    clearTimeout(timer);
    spec.signal?.removeEventListener("abort", onAbort);
    // Background jobs the hook left behind would keep the pipes open: end the whole group.
    signalProcessGroup(pid, "SIGKILL");
    running.delete(pid);
  }
  await settleWithin([stdout.done, stderr.done, feeding], PIPE_GRACE_MS);
  // A process that escaped the group (setsid of its own) may still hold a pipe: stop reading.
  await Promise.all([stdout.cancel(), stderr.cancel()]);
  const exited = failure === undefined && status.signal === null;
  return {
    code: exited ? status.code : null,
    signal: status.signal ?? null,
    stdout: stdout.text(),
    stderr: stderr.text(),
    ...(failure !== undefined ? { failure } : {}),
    durationMs: elapsed(),
  };
}

/** The failure of a command stopped because the user interrupted the run. */
export const INTERRUPTED = "interrupted by the user";

function empty() {
  return { code: null, signal: null, stdout: "", stderr: "" };
}

interface Capture {
  /** Settles when the stream ended (or failed). */
  done: Promise<void>;
  text(): string;
  cancel(): Promise<void>;
}

function capture(stream: ReadableStream<Uint8Array>, onOverflow: () => void): Capture {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let overflowed = false;
  let ended = false;
  const done = (async () => {
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        if (overflowed) continue; // drain and discard until the group is gone
        if (size + value.length > CAPTURE_LIMIT_BYTES) {
          chunks.push(value.slice(0, CAPTURE_LIMIT_BYTES - size));
          size = CAPTURE_LIMIT_BYTES;
          overflowed = true;
          onOverflow();
          continue;
        }
        chunks.push(value);
        size += value.length;
      }
    } catch {
      // A cancelled or broken pipe ends the capture; what was read is kept.
    } finally {
      ended = true;
    }
  })();
  return {
    done,
    text() {
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      return new TextDecoder().decode(bytes);
    },
    async cancel() {
      if (ended) return;
      try {
        await reader.cancel();
      } catch {
        // already closed
      }
      await done;
    },
  };
}

async function feed(stdin: WritableStream<Uint8Array>, text: string): Promise<void> {
  const writer = stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch {
    // A hook need not read its input; a closed pipe is not an error.
    try {
      await writer.abort();
    } catch {
      // already closed
    }
  }
}

async function settleWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.allSettled(promises),
    new Promise<void>((resolve) => timer = setTimeout(resolve, ms)),
  ]);
  clearTimeout(timer);
}
