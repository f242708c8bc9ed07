/**
 * One hel run: set up the active plugins, build the system message and the model client,
 * then hand user turns to the loop. The model client is given: the command line builds it from
 * the flags, tests pass a scripted one. Used by the one-shot and interactive modes alike. The
 * chat can switch the run to another conversation (run_conversation.ts) and another model.
 * Its contract is run_types.ts.
 *
 * @module
 */
import type { HelEvent } from "../core/events.ts";
import { createHost } from "./host.ts";
import { runLoop } from "../core/loop.ts";
import type { ModelClient } from "../core/model.ts";
import type { PermissionRules } from "../core/permissions.ts";
import { type OpenSession, openSession } from "./session/open.ts";
import { writeSpillFile } from "./session/store.ts";
import { executeToolCall } from "../core/tool_call.ts";
import { UsageError } from "../core/usage_error.ts";
import { emptyUsage } from "../core/usage.ts";
import { closingNote } from "./run_session.ts";
import { addRequestNotes } from "./request_notes.ts";
import { beginConversation, type Conversation } from "./run_conversation.ts";
import { MediaShelf } from "./media_shelf.ts";
import { resumableSessions } from "./session/resumable.ts";
import { resolveSessionId } from "./session/session_id.ts";
import { errorMessage, PluginHookError } from "../core/errors.ts";
import { PluginDriver } from "../core/plugin_driver.ts";
import { ToolRegistry } from "../core/tool_registry.ts";
import type { Run, RunDeps, RunSettings } from "./run_types.ts";

export type * from "./run_types.ts";

/** Sets up plugins (in order) and returns the run; a plugin that fails setup is named. */
export async function startRun(settings: RunSettings, deps: RunDeps): Promise<Run> {
  const { project, helHome } = deps.context;
  // The session the run is in: a switch (/clear, /resume) replaces it, and what reads it
  // (the host's session, spill files, shutdown) reads the current one.
  let session: OpenSession = await openSession(
    project,
    settings.resume,
    helHome,
    settings.forkSession,
  );
  let conversation: Conversation | undefined;
  // Every hook failure is a warning event: printed, and kept in the run's record.
  const plugins = new PluginDriver((text) => emit({ type: "warning", text }));
  const emit = (event: HelEvent) => {
    deps.emit(event);
    plugins.observe(event);
  };
  // Off with --no-compaction: large results then reach the model whole.
  const spill = settings.spill
    ? async (text: string) => {
      // Spilling goes into the session's folder: a new session is kept from now on.
      if (!session.saved) {
        session.save();
        await session.journal.flush().catch(() => {}); // its failure: the spill's, below
      }
      return await writeSpillFile(
        session.paths,
        text,
        (warning) => emit({ type: "warning", text: warning }),
      );
    }
    : undefined;
  const tools = new ToolRegistry(plugins);
  const { host, reading } = createHost({
    context: deps.context,
    session: {
      get id() {
        return session.paths.id;
      },
      get dir() {
        return session.paths.dir;
      },
      get resumed() {
        return session.state !== undefined;
      },
    },
    access: settings.access,
    tools,
    spill: (text) => spill ? spill(text) : Promise.resolve(undefined),
    emit,
    conversation: () => conversation?.messages ?? [],
  });
  let shuttingDown: Promise<void> | undefined;
  // Once only: the normal end, a signal and a failed setup may all ask for it.
  const shutdown = () => shuttingDown ??= plugins.shutdown().finally(() => session.release());
  deps.onShutdownReady?.(shutdown);
  for (const text of session.warnings) emit({ type: "warning", text });
  const rules = await ruleBook(settings.permissions);
  for (const text of rules?.problems ?? []) {
    emit({ type: "warning", text: `${text}; the rule is ignored` });
  }
  try {
    await plugins.start(deps.plugins, host);
  } catch (error) {
    await shutdown();
    if (error instanceof PluginHookError && error.cause instanceof UsageError) throw error.cause;
    throw new UsageError(errorMessage(error));
  }
  // What a new conversation (/clear) starts from; a saved one overrides what it saved.
  const freshStates = plugins.saveStates();
  if (session.state) plugins.restoreStates(session.state.plugins);

  let modelId = settings.model;
  let client = deps.model(emit, modelId);
  // Every reply is an event, timed, so a machine-readable report can tell what the model did.
  const model: ModelClient = {
    async complete(request, options) {
      const started = performance.now();
      const reply = await client.complete(request, options);
      const durationMs = Math.round(performance.now() - started);
      emit({ type: "model_reply", purpose: request.purpose, reply, durationMs });
      return reply;
    },
  };
  const usage = emptyUsage();
  const definitions = () => tools.definitions();
  const runSettings = () => ({
    model: modelId,
    base_url: settings.baseUrl,
    access: settings.access,
    tools: definitions().map((definition) => definition.function.name),
    plugins: deps.plugins.map((plugin) => plugin.name),
  });
  const parts = {
    context: deps.context,
    plugins,
    env: settings.env,
    contextFile: settings.contextFile,
    compaction: settings.compaction,
    model,
    toolDefinitions: definitions,
    usage,
    reading,
    spill,
    runSettings,
    emit,
  };
  let current = conversation = await beginConversation(session, parts);
  // Images and audio of the latest tool results, beside the conversation (media_shelf.ts).
  const shelf = new MediaShelf();

  /** Ends the current conversation and continues in `next`, its plugin state restored. */
  const switchTo = async (next: OpenSession, states: Record<string, unknown>) => {
    await current.close();
    session = next;
    for (const text of next.warnings) emit({ type: "warning", text });
    plugins.restoreStates(states);
    shelf.clear();
    current = conversation = await beginConversation(next, parts);
  };

  // Conversation requests report their prompt size to the compactor and the context meter.
  const conversationModel: ModelClient = {
    async complete(request, options) {
      const reply = await model.complete({ ...request, media: shelf.media() }, options);
      if (reply.ok && reply.usage) {
        current.measured(request.messages.length, reply.usage.promptTokens);
      }
      if (reply.ok) {
        // The first answer: a new session is written from here on (none for a run without).
        current.session.save();
        await current.recorder.record(reply.message);
      }
      return reply;
    },
  };
  const toolCallDeps = {
    tools,
    plugins,
    access: settings.access,
    rules,
    approver: deps.approver,
    spill,
    reading: reading(),
    emit: (event: HelEvent) => {
      if (event.type === "permission") {
        current.recorder.note({ type: "permission", decision: { ...event } });
      }
      emit(event);
    },
  };

  return {
    get session() {
      return session.paths;
    },
    get sessionSaved() {
      return session.saved;
    },
    usage,
    plugins: deps.plugins,
    get model() {
      return modelId;
    },
    baseUrl: settings.baseUrl,
    access: settings.access,
    permissions: settings.permissions ?? { allow: [], ask: [], deny: [] },
    contextFile: settings.contextFile,
    async turn(text, signal, stream) {
      const { messages, recorder, compactor } = current;
      messages.push({ role: "user", content: text });
      const outcome = await runLoop(messages, {
        model: conversationModel,
        toolDefinitions: definitions,
        executeToolCall: async (call, callSignal) => {
          const { content, media } = await executeToolCall(call, toolCallDeps, callSignal);
          if (media) shelf.add(call.id, media);
          await recorder.record({ role: "tool", tool_call_id: call.id, content });
          return content;
        },
        beforeRequest: async (now, requestSignal) => {
          // Before compaction and the journal: the person's message is not recorded yet.
          addRequestNotes(now, await plugins.requestNotes());
          if (compactor) {
            await recorder.rewriting(() => compactor.beforeRequest(now, requestSignal));
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
      const { messages, recorder, compactor } = current;
      if (!compactor) {
        const size = current.fill().tokens;
        const count = messages.length - 1;
        return {
          summarised: 0,
          pruned: 0,
          messagesBefore: count,
          messagesAfter: count,
          tokensBefore: size,
          tokensAfter: size,
          skipped: "compaction is off in this run (--no-compaction)",
        };
      }
      const report = await recorder.rewriting(() => compactor.compactNow(messages, signal));
      await recorder.sync();
      return report;
    },
    async newSession() {
      await switchTo(await openSession(project, undefined, helHome), freshStates);
    },
    async resumeSession(given) {
      const id = await resolveSessionId(project, given);
      if (id === session.paths.id) {
        throw new UsageError(`session ${id} is the one this chat is in already`);
      }
      const next = await openSession(project, id, helHome);
      const state = next.state!;
      await switchTo(next, { ...freshStates, ...state.plugins });
      return { id, createdAt: state.createdAt, messages: current.messages.slice(1) };
    },
    async setModel(id) {
      client = deps.model(emit, id);
      modelId = id;
      current.recorder.note({ type: "run", settings: { ...runSettings(), changed: "model" } });
      await current.recorder.sync();
    },
    conversation: () => current.messages.slice(1),
    contextUsage() {
      const { tokens, estimated } = current.fill();
      return { used: tokens, window: settings.contextWindow, estimated };
    },
    tools: () =>
      definitions().map(({ function: tool }) => ({
        name: tool.name,
        summary: (tool.description ?? "").trim().split("\n", 1)[0]!.trim(),
      })),
    pluginStatus: () => plugins.status(),
    chatCommands: () => plugins.chatCommands(),
    savedSessions: () => resumableSessions(project, helHome, session.paths.id),
  };
}

/**
 * The settings' rules compiled, or undefined when there are none. The matcher (and the glob
 * library it brings) is loaded only for rules: a run without any does without it.
 */
async function ruleBook(rules: PermissionRules | undefined) {
  const count = (rules?.allow.length ?? 0) + (rules?.ask.length ?? 0) + (rules?.deny.length ?? 0);
  if (count === 0) return undefined;
  const { RuleBook } = await import("../core/permission_rules.ts");
  return new RuleBook(rules);
}
