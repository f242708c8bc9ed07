/**
 * One hel run: set up the active plugins, build the system message and the model client,
 * then hand user turns to the loop. The model client is given: the command line builds it from
 * the flags, tests pass a scripted one. Used by the one-shot and interactive modes alike.
 *
 * @module
 */
import type { CompactionPolicy } from "./compaction/plan.ts";
import { createCompactor } from "./compaction/driver.ts";
import type { HelEvent } from "../core/events.ts";
import { createHost } from "./host.ts";
import { type LoopOutcome, runLoop } from "../core/loop.ts";
import type { ModelClient, StreamListeners } from "../core/model.ts";
import type { Approver } from "../core/permissions.ts";
import type { Plugin, PluginContext } from "../core/plugin.ts";
import { openSession, type ResumeChoice } from "./session/open.ts";
import { type SessionPaths, writeSpillFile } from "./session/store.ts";
import { buildSystemPrompt } from "./system_prompt.ts";
import { executeToolCall } from "../core/tool_call.ts";
import type { AccessLevel, ChatMessage } from "../core/types.ts";
import { UsageError } from "../core/usage_error.ts";
import { emptyUsage, type RunUsage } from "../core/usage.ts";
import { environmentFacts, readContextFile } from "./environment.ts";
import { closingNote } from "./run_session.ts";
import { createRecorder } from "./recorder.ts";
import { errorMessage, PluginHookError } from "../core/errors.ts";
import { PluginDriver } from "../core/plugin_driver.ts";
import { ToolRegistry } from "../core/tool_registry.ts";

/**
 * Settings of a run, from the command line. The model client is built by the caller; the
 * model's name and server are here only for the session journal.
 */
export interface RunSettings {
  model: string;
  baseUrl: string;
  access: AccessLevel;
  env: boolean;
  /** The context file's name, or false for none. */
  contextFile: string | false;
  maxTurns: number;
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
  turn(text: string, signal: AbortSignal, stream?: StreamListeners): Promise<LoopOutcome>;
  /**
   * Compacts the conversation now (`/compact`) and saves the session when it changed; false
   * when compaction is off or the summary could not be used.
   */
  compact(signal: AbortSignal): Promise<boolean>;
}

/** Everything `startRun` needs besides settings. */
export interface RunDeps {
  context: PluginContext;
  plugins: readonly Plugin[];
  approver: Approver;
  /**
   * Builds the conversation's model; `emit` is the run's, so its exchanges and retries reach
   * the plugins' observers and the record.
   */
  model(emit: (event: HelEvent) => void): ModelClient;
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
  // The system message is rebuilt below; everything after it is restored verbatim.
  const messages: ChatMessage[] = snapshot
    ? snapshot.messages.filter((m) => m.role !== "system")
    : [];
  // Every hook failure is a warning event: printed, and kept in the run's record.
  const plugins = new PluginDriver((text) => emit({ type: "warning", text }));
  const emit = (event: HelEvent) => {
    deps.emit(event);
    plugins.observe(event);
  };
  // Off with --no-compaction: large results then reach the model whole.
  const spill = settings.spill
    ? (text: string) =>
      writeSpillFile(session, text, (warning) => emit({ type: "warning", text: warning }))
    : undefined;
  const tools = new ToolRegistry(plugins);
  const { host, reading } = createHost({
    context: deps.context,
    session: { id: session.id, dir: session.dir, resumed: snapshot !== undefined },
    access: settings.access,
    tools,
    spill: (text) => spill ? spill(text) : Promise.resolve(undefined),
    emit,
    conversation: () => messages,
  });
  let shuttingDown: Promise<void> | undefined;
  // Once only: the normal end, a signal and a failed setup may all ask for it.
  const shutdown = () =>
    shuttingDown ??= plugins.shutdown().finally(() => {
      opened.journal.close();
      opened.lock.release();
    });
  deps.onShutdownReady?.(shutdown);
  for (const text of opened.warnings) emit({ type: "warning", text });
  try {
    await plugins.start(deps.plugins, host);
  } catch (error) {
    await shutdown();
    if (error instanceof PluginHookError && error.cause instanceof UsageError) throw error.cause;
    throw new UsageError(errorMessage(error));
  }
  if (snapshot) plugins.restoreStates(snapshot.plugins);

  const model = deps.model(emit);
  const usage = emptyUsage();
  const definitions = () => tools.definitions();
  const compactor = settings.compaction && createCompactor({
    policy: settings.compaction,
    model,
    toolDefinitions: definitions,
    plugins,
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
    tools,
    plugins,
    access: settings.access,
    approver: deps.approver,
    spill,
    reading: reading(),
    emit: (event: HelEvent) => {
      if (event.type === "permission") {
        recorder.note({ type: "permission", decision: { ...event } });
      }
      emit(event);
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
    environmentLines: settings.env ? plugins.environmentLines() : [],
    pluginSections: plugins.systemSections(),
  });
  messages.unshift({ role: "system", content: system });
  // The messages so far (a resume's) are in the journal already.
  const recorder = createRecorder({
    journal: opened.journal,
    messages,
    states: () => plugins.saveStates(),
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
      plugins: deps.plugins.map((plugin) => plugin.name),
    },
  });
  recorder.note({ type: "system", content: system });
  await recorder.sync();

  return {
    session,
    usage,
    plugins: deps.plugins,
    async turn(text, signal, stream) {
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
        ...(stream ? { stream } : {}),
        maxTurns: settings.maxTurns,
        usage,
        signal,
      });
      // A saved conversation always ends with an answer. A turn that ended without one is closed
      // by a note, so the calls it made are not lost on resume. The person's interrupt stays in
      // the conversation too, so the model knows of it on the next turn; the other notes are in
      // the journal only.
      const note = outcome.termination === "completed" ? undefined : closingNote(messages, outcome);
      if (note && outcome.termination === "interrupted") {
        messages.push(note);
        await recorder.endTurn(outcome.termination, undefined);
      } else {
        await recorder.endTurn(outcome.termination, note);
      }
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
