/**
 * One hel run: set up the active plugins, build the system message and the model client,
 * then hand user turns to the loop. Used by the one-shot and interactive modes alike.
 *
 * @module
 */
import type { CompactionPolicy } from "./compaction/plan.ts";
import { createCompactor } from "./compaction/driver.ts";
import type { HelEvent } from "../core/events.ts";
import { createHost } from "./host.ts";
import { type LoopOutcome, runLoop } from "../core/loop.ts";
import type { ModelClient } from "../core/model.ts";
import { createOpenAIClient } from "./model/openai_client.ts";
import type { Approver } from "../core/permissions.ts";
import type { Plugin, PluginContext } from "../core/plugin.ts";
import { openSession, type ResumeChoice } from "./session/open.ts";
import { type SessionPaths, writeSpillFile } from "./session/store.ts";
import { buildSystemPrompt } from "./system_prompt.ts";
import { executeToolCall } from "../core/tool_call.ts";
import type { AccessLevel, ChatMessage, Tool, ToolDefinition } from "../core/types.ts";
import { UsageError } from "../core/usage_error.ts";
import { emptyUsage, type RunUsage } from "../core/usage.ts";
import { environmentFacts, readContextFile } from "./environment.ts";
import { closingNote, restorePluginStates } from "./run_session.ts";
import { createRecorder } from "./recorder.ts";

/** Settings of a run, from the command line. */
export interface RunSettings {
  model: string;
  baseUrl: string;
  apiKey: string;
  access: AccessLevel;
  env: boolean;
  /** The context file's name, or false for none. */
  contextFile: string | false;
  maxTurns: number;
  stream: boolean;
  requestTimeoutMs: number;
  maxOutputTokens: number;
  /** Spill large results into the session (off with `--no-compaction`). */
  spill: boolean;
  /** Continue a saved session: its id, or `true` for the project's most recent one. */
  resume?: ResumeChoice;
  /** With `resume`: continue in a new session, leaving the resumed one as it was. */
  forkSession?: boolean;
  /** When to compact the conversation; undefined turns compaction off. */
  compaction?: CompactionPolicy;
}

/** A running session: its conversation and the means to run user turns on it. */
export interface Run {
  session: SessionPaths;
  usage: RunUsage;
  plugins: readonly Plugin[];
  /** Appends the user's message and runs the loop until the model answers. */
  turn(text: string, signal: AbortSignal, onText?: (text: string) => void): Promise<LoopOutcome>;
  /**
   * Compacts the conversation now (`/compact`) and saves the session when it changed; false
   * when compaction is off or the summary could not be used.
   */
  compact(signal: AbortSignal): Promise<boolean>;
}

/**
 * Definitions of registered tools followed by the plugins' per-request definitions. A plugin
 * that throws here is reported through `warn` and offers nothing for that request.
 */
export function toolDefinitions(
  tools: ReadonlyMap<string, Tool>,
  plugins: readonly Plugin[],
  warn: (text: string) => void = () => {},
) {
  const definitions: ToolDefinition[] = [...tools.values()].map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
  for (const plugin of plugins) {
    try {
      definitions.push(...(plugin.toolDefinitions?.() ?? []));
    } catch (error) {
      warn(`plugin ${plugin.name} failed in toolDefinitions: ${(error as Error).message}`);
    }
  }
  return definitions;
}

/** Everything `startRun` needs besides settings. */
export interface RunDeps {
  context: PluginContext;
  plugins: readonly Plugin[];
  approver: Approver;
  emit(event: HelEvent): void;
  /**
   * Receives the run's shutdown before any plugin is set up, so an exit path taken during
   * setup (Ctrl-C, SIGTERM) still shuts down the plugins that already started.
   */
  onShutdownReady?(shutdown: () => Promise<void>): void;
}

/** Sets up plugins (in order) and returns the run; a plugin that fails setup is named. */
export async function startRun(settings: RunSettings, deps: RunDeps): Promise<Run> {
  const opened = await openSession(
    deps.context.project,
    settings.resume,
    deps.context.helHome,
    settings.forkSession,
  );
  const session = opened.paths;
  const snapshot = opened.state;
  for (const text of opened.warnings) deps.emit({ type: "warning", text });
  // The system message is rebuilt below; everything after it is restored verbatim.
  const messages: ChatMessage[] = snapshot
    ? snapshot.messages.filter((m) => m.role !== "system")
    : [];
  // Off with --no-compaction: large results then reach the model whole.
  const spill = settings.spill
    ? (text: string) =>
      writeSpillFile(session, text, (warning) => deps.emit({ type: "warning", text: warning }))
    : undefined;
  const { host, tools, reading } = createHost({
    context: deps.context,
    session: { id: session.id, dir: session.dir, resumed: snapshot !== undefined },
    access: settings.access,
    spill: (text) => spill ? spill(text) : Promise.resolve(undefined),
    emit: deps.emit,
    conversation: () => messages,
  });
  const started: Plugin[] = [];
  let shuttingDown: Promise<void> | undefined;
  // Once only: the normal end, a signal and a failed setup may all ask for it.
  const shutdown = () => shuttingDown ??= shutdownPlugins();
  const shutdownPlugins = async () => {
    for (const plugin of [...started].reverse()) {
      try {
        await plugin.shutdown?.();
      } catch (error) {
        deps.context.log.warn(
          `plugin ${plugin.name} failed to shut down: ${(error as Error).message}`,
        );
      }
    }
    opened.journal.close();
    opened.lock.release();
  };
  deps.onShutdownReady?.(shutdown);
  for (const plugin of deps.plugins) {
    try {
      started.push(plugin);
      await plugin.setup?.(host);
    } catch (error) {
      await shutdown();
      if (error instanceof UsageError) throw error;
      throw new UsageError(`plugin ${plugin.name} failed to set up: ${(error as Error).message}`);
    }
  }
  if (snapshot) restorePluginStates(started, snapshot.plugins, deps.context.log);

  const model = createOpenAIClient({
    baseURL: settings.baseUrl,
    apiKey: settings.apiKey,
    model: settings.model,
    stream: settings.stream,
    maxOutputTokens: settings.maxOutputTokens,
    requestTimeoutMs: settings.requestTimeoutMs,
    maxRetries: 4,
    totalTimeoutMs: Math.max(settings.requestTimeoutMs * 2, 60_000),
    backoffMs: 1_000,
    onExchange: deps.emit,
    onRetry: (attempt, delayMs, reason) => deps.emit({ type: "retry", attempt, delayMs, reason }),
  });
  const usage = emptyUsage();
  const definitions = () => toolDefinitions(tools, started, (text) => deps.context.log.warn(text));
  const compactor = settings.compaction && createCompactor({
    policy: settings.compaction,
    model,
    toolDefinitions: definitions,
    plugins: started,
    usage,
    log: deps.context.log,
    save: spill,
    reading: reading(),
    retained: snapshot?.retained ?? 0,
  });
  // Conversation requests report their prompt size to the compactor's meter.
  const conversationModel: ModelClient = {
    async complete(request, options) {
      const reply = await model.complete(request, options);
      if (reply.ok && reply.usage) {
        compactor?.measured(request.messages.length, reply.usage.promptTokens);
      }
      if (reply.ok) await recorder.record(reply.message);
      return reply;
    },
  };
  const toolCallDeps = {
    registered: tools,
    plugins: started,
    access: settings.access,
    approver: deps.approver,
    spill,
    reading: reading(),
    emit: (event: HelEvent) => {
      if (event.type === "permission") {
        recorder.note({ type: "permission", decision: { ...event } });
      }
      deps.emit(event);
    },
  };

  // Built fresh (after plugins restored their state), also on resume: the saved one is dropped.
  const system = buildSystemPrompt({
    environment: settings.env ? environmentFacts(deps.context.project) : undefined,
    contextFile: settings.contextFile
      ? await readContextFile(
        deps.context.project,
        settings.contextFile,
        (text) => deps.context.log.warn(text),
        reading(),
      )
      : undefined,
    plugins: started,
    onPluginError: (plugin, error) =>
      deps.context.log.warn(
        `plugin ${plugin.name} failed to build its system section: ${(error as Error).message}`,
      ),
  });
  messages.unshift({ role: "system", content: system });
  // The messages so far (a resume's) are in the journal already.
  const recorder = createRecorder({
    journal: opened.journal,
    messages,
    plugins: started,
    retained: () => compactor?.retained() ?? 0,
    log: deps.context.log,
    sessionId: session.id,
  });
  recorder.note({
    type: "run",
    settings: {
      model: settings.model,
      base_url: settings.baseUrl,
      access: settings.access,
      tools: definitions().map((definition) => definition.function.name),
      plugins: started.map((plugin) => plugin.name),
    },
  });
  recorder.note({ type: "system", content: system });
  await recorder.sync();

  return {
    session,
    usage,
    plugins: started,
    async turn(text, signal, onText) {
      messages.push({ role: "user", content: text });
      const outcome = await runLoop(messages, {
        model: conversationModel,
        toolDefinitions: definitions,
        executeToolCall: async (call, callSignal) => {
          const { content } = await executeToolCall(call, toolCallDeps, callSignal);
          await recorder.record({ role: "tool", tool_call_id: call.id, content });
          return content;
        },
        beforeRequest: async (current, requestSignal) => {
          if (compactor) {
            await recorder.rewriting(() => compactor.beforeRequest(current, requestSignal));
          }
          await recorder.sync();
        },
        ...(onText ? { onText } : {}),
        maxTurns: settings.maxTurns,
        usage,
        signal,
      });
      // A saved conversation always ends with an answer. A turn that ended without one is closed
      // by a note (in the journal only), so the calls it made are not lost on resume.
      const note = outcome.termination === "completed"
        ? undefined
        : closingNote(messages, outcome.error ?? outcome.termination);
      await recorder.endTurn(outcome.termination, note);
      return outcome;
    },
    async compact(signal) {
      if (!compactor) {
        deps.context.log.info("[compaction] off in this run (--no-compaction)");
        return false;
      }
      const changed = await recorder.rewriting(() => compactor.compactNow(messages, signal));
      await recorder.sync();
      return changed;
    },
  };
}
