/**
 * Running the handlers of one event for one call, in file order: PreToolUse stops at the
 * first block; PostToolUse runs every matching handler and appends their feedback to the
 * result. Each run is traced; hook errors are shown to the user and, unless the handler says
 * `"on_error": "block"`, the call goes on.
 *
 * @module
 */
import type { BlockDecision, HelEvent, ToolCallInfo, ToolResult } from "../../core/mod.ts";
import { escapeControlCharacters } from "../../kit/mod.ts";
import { type HookEvent, type HookHandler, HOOKS_TRACE, matches } from "./config.ts";
import type { ExposedFiles } from "./exposed_files.ts";
import { boundFeedback } from "./feedback.ts";
import type { Launcher } from "./launch.ts";
import { type CommandResult, type CommandRunner, INTERRUPTED } from "./runner.ts";
import { type Verdict, verdictOf } from "./verdict.ts";

/** What running hooks needs from the run. */
export interface DispatchDeps {
  project: string;
  sessionId: string;
  /** Prepares a handler's command: in the sandbox, or outside for `"sandbox": false`. */
  launch: Launcher;
  /**
   * Told when a hook has ended, so the sandbox looks at what it changed (a planted git
   * repository, a new `.hel`) before the next program.
   */
  afterRun(): Promise<unknown>;
  runner: CommandRunner;
  emit(event: HelEvent): void;
  spill(text: string): Promise<string | undefined>;
  /** The project files the handlers name, to refuse a handler whose file changed. */
  exposed?: ExposedFiles;
}

const TRACE_MESSAGE_CHARS = 4_096;

/** Runs the matching PreToolUse handlers; a block stops the call and the remaining handlers. */
export async function runPreToolUse(
  handlers: readonly HookHandler[],
  call: ToolCallInfo,
  deps: DispatchDeps,
): Promise<BlockDecision | undefined> {
  const payload = basePayload("PreToolUse", call, deps);
  for (const handler of handlers) {
    if (!matches(handler, call.name)) continue;
    const verdict = await runHandler(handler, payload, call, deps);
    if (verdict.status === "interrupted") {
      return { block: "interrupted by the user before this call ran" };
    }
    let reason: string | undefined;
    if (verdict.status === "blocked") reason = verdict.reason;
    else if (verdict.status === "error" && handler.onError === "block") {
      reason = `hook ${handler.index + 1} failed and is set to block the call when it fails ` +
        `(${verdict.message})`;
    }
    if (reason !== undefined) {
      return {
        block: `PreToolUse hook blocked ${call.name}: ${await boundFeedback(reason, deps.spill)}`,
      };
    }
  }
  return undefined;
}

/**
 * Runs every matching PostToolUse handler; each sees the tool's own result. Returns the
 * result with their feedback appended, or undefined when none gave any.
 */
export async function runPostToolUse(
  handlers: readonly HookHandler[],
  call: ToolCallInfo,
  result: ToolResult,
  deps: DispatchDeps,
): Promise<ToolResult | undefined> {
  const payload = { ...basePayload("PostToolUse", call, deps), tool_response: result.text };
  const notes: string[] = [];
  for (const handler of handlers) {
    if (!matches(handler, call.name)) continue;
    const verdict = await runHandler(handler, payload, call, deps);
    if (verdict.status === "interrupted") break;
    const label = `PostToolUse hook ${handler.index + 1}`;
    if (verdict.status === "feedback") notes.push(`[${label}]\n${verdict.reason}`);
    else if (verdict.status === "error" && handler.onError === "block") {
      // The call already ran; a hook that must not fail silently tells the model instead.
      notes.push(`[${label} failed]\n${verdict.message}`);
    }
  }
  if (notes.length === 0) return undefined;
  const feedback = await boundFeedback(notes.join("\n\n"), deps.spill);
  return { ok: result.ok, text: `${result.text}\n\n${feedback}` };
}

function basePayload(event: HookEvent, call: ToolCallInfo, deps: DispatchDeps) {
  return {
    hook_event_name: event,
    session_id: deps.sessionId,
    cwd: deps.project,
    tool_use_id: call.callId,
    tool_name: call.name,
    tool_input: call.args,
  };
}

async function runHandler(
  handler: HookHandler,
  payload: Record<string, unknown>,
  call: ToolCallInfo,
  deps: DispatchDeps,
): Promise<Verdict | { status: "interrupted" }> {
  const changed = await deps.exposed?.changed(handler) ?? [];
  if (changed.length > 0) return notRun(handler, changed, call, deps);
  const prepared = await deps.launch(handler);
  const result: CommandResult = prepared.ok
    ? await deps.runner.run({
      program: prepared.program,
      args: prepared.args,
      cwd: deps.project,
      env: prepared.env,
      stdin: JSON.stringify(payload) + "\n",
      timeoutSeconds: handler.timeoutSeconds,
      ...(call.signal ? { signal: call.signal } : {}),
    })
    : { code: null, signal: null, stdout: "", stderr: "", failure: prepared.text, durationMs: 0 };
  if (prepared.ok) await deps.afterRun();
  // The user stopped the run: not the hook's fault, so no warning, just the trace.
  const verdict = result.failure === INTERRUPTED
    ? { status: "interrupted" as const }
    : verdictOf(handler.event, result);
  const message = verdict.status === "error"
    ? verdict.message
    : verdict.status === "blocked" || verdict.status === "feedback"
    ? verdict.reason
    : undefined;
  traceHandler(handler, call, deps, {
    status: verdict.status,
    exit_code: result.code,
    ...(result.signal !== null ? { signal: result.signal } : {}),
    duration_ms: result.durationMs,
    ...(message !== undefined ? { message: message.slice(0, TRACE_MESSAGE_CHARS) } : {}),
  });
  if (verdict.status === "error") {
    const pre = handler.event === "PreToolUse";
    const next = handler.onError === "block"
      ? pre ? "the call is blocked" : "the model is told"
      : pre
      ? "the call goes on"
      : "the result is kept";
    deps.emit({
      type: "warning",
      text: escapeControlCharacters(
        `${handler.event} hook ${handler.index + 1} error for ${call.name}: ${verdict.message} ` +
          `(${next})`,
      ).replaceAll("\n", " "),
    });
  }
  return verdict;
}

/**
 * A handler naming a project file that changed since it was checked (during this run, or
 * unapproved since an earlier one) is not run: only handlers that run outside the sandbox
 * name checked files, and the change may be the model's. PreToolUse fails closed (the call is
 * blocked); PostToolUse keeps the result. Both are shown to the user.
 */
function notRun(
  handler: HookHandler,
  changed: string[],
  call: ToolCallInfo,
  deps: DispatchDeps,
): Verdict {
  const reason = `hook ${handler.index + 1} was not run: ${changed.join(", ")} changed since ` +
    'hel checked it, and this hook runs outside the sandbox ("sandbox": false), so hel does ' +
    "not run a file the model may have rewritten; ask the user to review the change and start " +
    "hel again on a terminal";
  const pre = handler.event === "PreToolUse";
  traceHandler(handler, call, deps, { status: "not-run", changed });
  deps.emit({
    type: "warning",
    text: escapeControlCharacters(
      `${handler.event} ${reason} (${pre ? "the call is blocked" : "the result is kept"})`,
    ).replaceAll("\n", " "),
  });
  return pre ? { status: "blocked", reason } : { status: "error", message: reason, exitCode: null };
}

/** One line of the hooks trace for `handler` on `call`, with what became of it. */
function traceHandler(
  handler: HookHandler,
  call: ToolCallInfo,
  deps: DispatchDeps,
  outcome: Record<string, unknown>,
): void {
  deps.emit({
    type: "trace",
    channel: HOOKS_TRACE,
    data: {
      event: handler.event,
      tool_use_id: call.callId,
      tool_name: call.name,
      handler: handler.index,
      command: handler.command,
      ...outcome,
    },
  });
}
