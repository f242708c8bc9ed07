/**
 * Running one hook command, as prepared by launch.ts (`/bin/sh -c <command>` inside the
 * sandbox, or outside for `"sandbox": false`) in the project, as the leader of its own
 * process group, with a JSON payload on stdin and stdout/stderr captured up to 1 MiB each.
 * A timeout or a capture overflow kills the whole group; when the shell exits, whatever it
 * left running in its group is stopped too, so a stray background job cannot hold hel up.
 * The core's child runner does the work; this file holds the hooks' limits and texts.
 *
 * @module
 */
import { type ChildStop, runChild, signalProcessGroup } from "../../kit/mod.ts";

/** Bytes kept of each of stdout and stderr. */
export const CAPTURE_LIMIT_BYTES = 1024 * 1024;

/** How long to wait for the output pipes to close after the group was stopped. */
const PIPE_GRACE_MS = 2_000;

/** One command to run. */
export interface CommandSpec {
  /** The program to start (bwrap, or /bin/sh for an unsandboxed hook) and its arguments. */
  program: string;
  args: readonly string[];
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
  const outcome = await runChild({
    program: spec.program,
    args: [...spec.args],
    cwd: spec.cwd,
    env: spec.env,
    stdin: spec.stdin,
    captureBytes: CAPTURE_LIMIT_BYTES,
    onOverflow: "kill",
    timeoutMs: spec.timeoutSeconds * 1000,
    signal: spec.signal,
    drainGraceMs: PIPE_GRACE_MS,
    running,
  });
  const durationMs = Math.round(performance.now() - started);
  if (outcome.kind === "not-started") {
    return {
      code: null,
      signal: null,
      stdout: "",
      stderr: "",
      failure: `could not start ${spec.program}: ${outcome.message}`,
      durationMs,
    };
  }
  const stop = outcome.stops[0];
  return {
    // A command hel stopped did not exit by itself, whatever its status says.
    code: stop === undefined ? outcome.code : null,
    signal: outcome.signal,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    ...(stop !== undefined ? { failure: stopReason(stop, spec.timeoutSeconds) } : {}),
    durationMs,
  };
}

/** The failure of a command stopped because the user interrupted the run. */
export const INTERRUPTED = "interrupted by the user";

function stopReason(stop: ChildStop, timeoutSeconds: number): string {
  switch (stop) {
    case "timeout":
      return `timed out after ${timeoutSeconds} second${timeoutSeconds === 1 ? "" : "s"}`;
    case "interrupted":
      return INTERRUPTED;
    case "stdout-overflow":
      return "its stdout exceeded the 1 MiB capture limit";
    case "stderr-overflow":
      return "its stderr exceeded the 1 MiB capture limit";
  }
}
