/**
 * The machine-readable report of a one-shot run. It hears every run event and the streamed
 * text of the turn; with `stream-json` it writes one line per event as the run goes (lines
 * from before the run started wait for the init line, which comes first), and with both
 * formats the result at the end. Every line carries a fresh `uuid` and the `session_id`.
 *
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };
import type { HelEvent, ModelReplyEvent } from "../../core/events.ts";
import type { LoopOutcome } from "../../core/loop.ts";
import type { StreamListeners } from "../../core/model.ts";
import type { Logger } from "../../core/plugin.ts";
import type { Run } from "../../agent/run.ts";
import type { MachineFormat } from "./format.ts";
import {
  assistantLine,
  compactionLine,
  deltaLine,
  initLine,
  type Line,
  permissionLine,
  retryLine,
  toolCallResultLine,
  toolResultLine,
  warningLine,
} from "./messages.ts";
import { mcpServerWatch } from "./mcp_servers.ts";
import { type PermissionDenial, resultLine } from "./result.ts";
import { isRecord } from "../../core/is_record.ts";

/** What the command line tells the reporter. */
export interface RunReporter {
  /** Hears a run event (from start-up on). */
  onEvent(event: HelEvent): void;
  /** `base` with its warnings reported as well (hel's own, such as a context file's). */
  logger(base: Logger): Logger;
  /** The run is set up: writes the init line and whatever waited for it. */
  started(run: Run, cwd: string): void;
  /** Hears the turn's streamed answer and reasoning. */
  readonly stream: StreamListeners;
  /** The turn ended: answers any call left unanswered, then writes the result. */
  finished(outcome: LoopOutcome): void;
}

/**
 * A reporter writing `format` through `write` (one call per line); `now` is the clock in
 * milliseconds, for the durations.
 */
export function createReporter(
  format: MachineFormat,
  write: (line: Record<string, unknown>) => void,
  now: () => number = () => performance.now(),
): RunReporter {
  const startedAt = now();
  const streaming = format === "stream-json";
  const mcp = mcpServerWatch();
  let run: Run | undefined;
  /** Lines from before the init line (start-up warnings), written right after it. */
  const waiting: Line[] = [];
  let turns = 0;
  let toolCalls = 0;
  let apiMs = 0;
  const denials: PermissionDenial[] = [];
  /** Calls of the last reply without a result yet, by id. */
  const unanswered = new Set<string>();
  /** Whether the reply being streamed has sent reasoning (its text is then block 1). */
  let reasoned = false;

  const send = (line: Line) => {
    if (run === undefined) return void waiting.push(line);
    write({ ...line, uuid: crypto.randomUUID(), session_id: run.session.id });
  };
  /** The result names the session only if it was saved: a run never answered leaves none. */
  const sendResult = (line: Line) => {
    if (run === undefined) return void waiting.push(line);
    const session_id = run.sessionSaved ? run.session.id : null;
    write({ ...line, uuid: crypto.randomUUID(), session_id });
  };
  const stream = (line: Line) => {
    if (streaming) send(line);
  };

  /**
   * Calls hel answered without running them (past the per-response limit, or after an
   * interrupt) get their result from the conversation, so every tool_use has a tool_result.
   */
  const answerUnanswered = () => {
    if (unanswered.size === 0 || run === undefined) return;
    for (const message of run.conversation()) {
      if (message.role !== "tool" || !unanswered.has(message.tool_call_id)) continue;
      stream(toolResultLine(message.tool_call_id, message.content, "not_run"));
      unanswered.delete(message.tool_call_id);
    }
    unanswered.clear();
  };

  const onReply = (event: ModelReplyEvent) => {
    apiMs += event.durationMs;
    if (event.purpose !== "conversation" || !event.reply.ok) return;
    answerUnanswered();
    turns++;
    reasoned = false;
    const calls = event.reply.message.tool_calls ?? [];
    toolCalls += calls.length;
    for (const call of calls) unanswered.add(call.id);
    stream(assistantLine(event.reply));
  };

  return {
    onEvent(event) {
      mcp.onEvent(event);
      switch (event.type) {
        case "model_reply":
          return onReply(event);
        case "tool_call":
          unanswered.delete(event.callId);
          return stream(toolCallResultLine(event));
        case "permission":
          if (!event.executed && event.toolClass !== null) {
            denials.push({
              tool_name: event.name,
              tool_use_id: event.callId,
              tool_input: isRecord(event.args) ? event.args : {},
            });
          }
          return stream(permissionLine(event));
        case "compaction":
          return stream(compactionLine(event));
        case "retry":
          return stream(retryLine(event));
        case "warning":
          return stream(warningLine(event.text));
      }
    },
    logger: (base) => ({
      warn(text) {
        base.warn(text);
        stream(warningLine(text));
      },
      info: (text) => base.info(text),
    }),
    started(given, cwd) {
      run = given;
      stream(initLine({
        cwd,
        model: given.model,
        baseUrl: given.baseUrl,
        access: given.access,
        tools: given.tools().map((tool) => tool.name),
        mcpServers: mcp.servers(),
        version: denoJson.version,
      }));
      for (const line of waiting.splice(0)) send(line);
    },
    stream: {
      onText: (text) => stream(deltaLine("text", reasoned ? 1 : 0, text)),
      onReasoning: (text) => {
        reasoned = true;
        stream(deltaLine("thinking", 0, text));
      },
    },
    finished(outcome) {
      answerUnanswered();
      sendResult(resultLine(outcome, run!.usage, {
        turns,
        toolCalls,
        durationMs: now() - startedAt,
        durationApiMs: apiMs,
        permissionDenials: denials,
      }));
    },
  };
}
