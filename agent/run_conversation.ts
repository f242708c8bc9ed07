/**
 * One conversation of a run: the session it is saved in (held lock, open journal), its
 * messages with a freshly built system message first, the recorder that journals them, its
 * compactor and how much of the context window it fills. A run begins with one; `/clear` and
 * `/resume` in the chat end it and begin another, while the plugins, tools and model stay.
 *
 * @module
 */
import { type CompactionPolicy, conversationTokens } from "./compaction/plan.ts";
import { type Compactor, createCompactor } from "./compaction/driver.ts";
import type { CompactionEvent } from "../core/events.ts";
import type { ModelClient } from "../core/model.ts";
import type { PluginContext } from "../core/plugin.ts";
import type { PluginDriver } from "../core/plugin_driver.ts";
import type { FileReading } from "../core/file_reading.ts";
import type { SpillWriter } from "../core/spill.ts";
import type { ChatMessage, ToolDefinition } from "../core/types.ts";
import type { RunUsage } from "../core/usage.ts";
import type { OpenSession } from "./session/open.ts";
import { buildSystemPrompt } from "./system_prompt.ts";
import { environmentFacts } from "./environment.ts";
import { readContextFiles } from "./context_files.ts";
import { createRecorder, type Recorder } from "./recorder.ts";

/** What every conversation of a run shares. */
export interface ConversationParts {
  context: PluginContext;
  plugins: PluginDriver;
  /** Facts about the machine in the system message (off with `--no-env`). */
  env: boolean;
  /** The context files' names, in order, or false for none. */
  contextFile: readonly string[] | false;
  /** Undefined turns compaction off. */
  compaction: CompactionPolicy | undefined;
  model: ModelClient;
  toolDefinitions(): ToolDefinition[];
  usage: RunUsage;
  reading(): FileReading | undefined;
  spill: SpillWriter | undefined;
  /** The run's settings as the journal's `run` entry gives them. */
  runSettings(): Record<string, unknown>;
  /** The run's event sink: hears each compaction that changed the conversation. */
  emit(event: CompactionEvent): void;
}

/** How much of the context window the conversation fills. */
export interface ContextFill {
  tokens: number;
  /**
   * True when counted as characters / 4 (nothing reported yet, or the conversation was
   * rewritten since); false when the server's count of the last request is the base.
   */
  estimated: boolean;
}

/** The conversation of one session. */
export interface Conversation {
  readonly session: OpenSession;
  /** The messages, system message first; the loop appends to them. */
  readonly messages: ChatMessage[];
  readonly recorder: Recorder;
  readonly compactor: Compactor | undefined;
  /** The prompt tokens the server reported for a request of the first `count` messages. */
  measured(count: number, promptTokens: number): void;
  fill(): ContextFill;
  /** Writes what is left, closes the journal and releases the session's lock. */
  close(): Promise<void>;
}

/**
 * Begins the conversation of `session`: its saved messages (a resume's) after a system message
 * built now, from the plugins' state as restored by the caller; the journal notes the run's
 * settings and the system message.
 */
export async function beginConversation(
  session: OpenSession,
  parts: ConversationParts,
): Promise<Conversation> {
  const { context, plugins } = parts;
  // The system message is rebuilt; everything after it is restored verbatim.
  const messages: ChatMessage[] = session.state
    ? session.state.messages.filter((message) => message.role !== "system")
    : [];
  const compactor = parts.compaction && createCompactor({
    policy: parts.compaction,
    model: parts.model,
    toolDefinitions: parts.toolDefinitions,
    plugins,
    usage: parts.usage,
    log: context.log,
    save: parts.spill,
    reading: parts.reading(),
    retained: session.state?.retained ?? 0,
    emit: parts.emit,
  });
  const system = buildSystemPrompt({
    environment: parts.env ? environmentFacts(context.project) : undefined,
    contextFiles: parts.contextFile
      ? await readContextFiles(
        context.project,
        parts.contextFile,
        (text) => context.log.warn(text),
        parts.reading(),
      )
      : [],
    environmentLines: parts.env ? plugins.environmentLines() : [],
    pluginSections: plugins.systemSections(),
  });
  messages.unshift({ role: "system", content: system });
  // The messages so far (a resume's) are in the journal already.
  const recorder = createRecorder({
    journal: session.journal,
    messages,
    states: () => plugins.saveStates(),
    retained: () => compactor?.retained() ?? 0,
    log: context.log,
    sessionId: session.paths.id,
  });
  recorder.note({ type: "run", settings: parts.runSettings() });
  recorder.note({ type: "system", content: system });
  await recorder.sync();

  // The server's count covers the messages up to `last`; a compaction replaces that message.
  let meter: { count: number; promptTokens: number; last: ChatMessage } | undefined;
  return {
    session,
    messages,
    recorder,
    compactor,
    measured(count, promptTokens) {
      compactor?.measured(count, promptTokens);
      const last = messages[count - 1];
      meter = last ? { count, promptTokens, last } : undefined;
    },
    fill() {
      if (meter && messages[meter.count - 1] === meter.last) {
        const added = conversationTokens(messages.slice(meter.count));
        return { tokens: meter.promptTokens + added, estimated: false };
      }
      return { tokens: conversationTokens(messages), estimated: true };
    },
    async close() {
      try {
        await recorder.close();
      } finally {
        session.release();
      }
    },
  };
}
