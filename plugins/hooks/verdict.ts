/**
 * What a finished hook command means for the call (original hel §5.4): exit 2 blocks a
 * PreToolUse call or gives PostToolUse feedback; exit 0 continues, or carries a JSON decision
 * on stdout; anything else (another exit code, a signal, a timeout, unreadable output) is a
 * hook error.
 *
 * @module
 */
import type { HookEvent } from "./config.ts";
import type { CommandResult } from "./runner.ts";

/** The meaning of one handler run. */
export type Verdict =
  | { status: "continued" }
  /** PreToolUse only: the call must not run. */
  | { status: "blocked"; reason: string }
  /** PostToolUse only: text for the model, appended to the result. */
  | { status: "feedback"; reason: string }
  | { status: "error"; message: string; exitCode: number | null };

const STDERR_TAIL_CHARS = 1_000;

/** The reason used when a hook blocks without saying why. */
export function defaultReason(event: HookEvent): string {
  return `${event} hook returned a blocking decision without a reason`;
}

/** Interprets a finished command for `event`. */
export function verdictOf(event: HookEvent, result: CommandResult): Verdict {
  const error = (message: string): Verdict => ({
    status: "error",
    message: withStderr(message, result.stderr),
    exitCode: result.code,
  });
  if (result.failure !== undefined) return error(result.failure);
  if (result.signal !== null) return error(`was killed by ${result.signal}`);
  if (result.code === 2) {
    const reason = result.stderr.trim() || defaultReason(event);
    return event === "PreToolUse" ? { status: "blocked", reason } : { status: "feedback", reason };
  }
  if (result.code !== 0) return error(`exited with code ${result.code}`);
  const stdout = result.stdout.trim();
  if (stdout === "") return { status: "continued" };
  let decision: unknown;
  try {
    decision = JSON.parse(stdout);
  } catch {
    return error(
      "exited 0 but printed something on stdout that is not a JSON decision; print nothing " +
        "to continue, or a JSON object",
    );
  }
  if (decision === null || typeof decision !== "object" || Array.isArray(decision)) {
    return error("exited 0 but its stdout is JSON that is not an object");
  }
  const problem = event === "PreToolUse"
    ? preDecision(decision as Record<string, unknown>)
    : postDecision(decision as Record<string, unknown>);
  return typeof problem === "string" ? error(problem) : problem;
}

function preDecision(decision: Record<string, unknown>): Verdict | string {
  const unknown = Object.keys(decision).filter((key) => key !== "hookSpecificOutput");
  if ("decision" in decision) {
    return 'a PreToolUse hook blocks with {"hookSpecificOutput": {"hookEventName": ' +
      '"PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "..."}} ' +
      'or exit code 2, not with "decision"';
  }
  if (unknown.length > 0) return `unsupported field "${unknown[0]}" in its JSON output`;
  const specific = decision.hookSpecificOutput;
  if (specific === undefined) return { status: "continued" };
  if (specific === null || typeof specific !== "object" || Array.isArray(specific)) {
    return "hookSpecificOutput must be an object";
  }
  const fields = specific as Record<string, unknown>;
  const allowed = ["hookEventName", "permissionDecision", "permissionDecisionReason"];
  const extra = Object.keys(fields).find((key) => !allowed.includes(key));
  if (extra !== undefined) return `unsupported field "hookSpecificOutput.${extra}"`;
  if (fields.hookEventName !== "PreToolUse") {
    return `hookSpecificOutput.hookEventName must be "PreToolUse", not ${
      JSON.stringify(fields.hookEventName)
    }`;
  }
  const reason = fields.permissionDecisionReason;
  if (reason !== undefined && typeof reason !== "string") {
    return "hookSpecificOutput.permissionDecisionReason must be a string";
  }
  if (fields.permissionDecision === "deny") {
    return { status: "blocked", reason: reason?.trim() || defaultReason("PreToolUse") };
  }
  // "allow" tightens nothing and grants nothing: the permission decision still follows.
  if (fields.permissionDecision === "allow" || fields.permissionDecision === undefined) {
    return { status: "continued" };
  }
  return `unsupported permissionDecision ${
    JSON.stringify(fields.permissionDecision)
  }; use "deny" or "allow"`;
}

function postDecision(decision: Record<string, unknown>): Verdict | string {
  if ("hookSpecificOutput" in decision) {
    return 'a PostToolUse hook gives feedback with {"decision": "block", "reason": "..."} or ' +
      "exit code 2, not with hookSpecificOutput";
  }
  const extra = Object.keys(decision).find((key) => key !== "decision" && key !== "reason");
  if (extra !== undefined) return `unsupported field "${extra}" in its JSON output`;
  const reason = decision.reason;
  if (reason !== undefined && typeof reason !== "string") return '"reason" must be a string';
  if (decision.decision === undefined) return { status: "continued" };
  if (decision.decision !== "block") {
    return `unsupported decision ${JSON.stringify(decision.decision)}; use "block"`;
  }
  return { status: "feedback", reason: reason?.trim() || defaultReason("PostToolUse") };
}

function withStderr(message: string, stderr: string): string {
  const trimmed = stderr.trim();
  if (trimmed === "") return message;
  const tail = trimmed.length > STDERR_TAIL_CHARS
    ? `…${trimmed.slice(-STDERR_TAIL_CHARS)}`
    : trimmed;
  return `${message}; stderr: ${tail}`;
}
