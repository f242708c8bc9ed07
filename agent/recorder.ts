/**
 * What a run writes to its session's journal, as it happens: each assistant message once its
 * response is complete, each tool result once its call returned, permission decisions, the
 * messages the loop adds by itself (the user's, answers to calls that did not run), compaction
 * checkpoints, plugin state when it changed, and the end of each turn. Entries are flushed
 * before every model request and after every tool result; a failed write is a warning (once),
 * the conversation goes on in memory and the next flush tries again.
 *
 * @module
 */
import type { Logger } from "../core/plugin.ts";
import type { ChatMessage } from "../core/types.ts";
import type { EntryBody } from "./session/journal.ts";
import type { JournalWriter } from "./session/journal_writer.ts";

/** What the recorder needs. `messages` is the run's live conversation, system message first. */
export interface RecorderDeps {
  journal: JournalWriter;
  messages: readonly ChatMessage[];
  /** The plugins' state now, by plugin name (the plugin driver warns of a failing one). */
  states(): Record<string, unknown>;
  /** Retained plugin messages after the last checkpoint (from the compactor). */
  retained(): number;
  log: Logger;
  sessionId: string;
}

/** The run's journal recorder. */
export interface Recorder {
  /**
   * Queues an entry about the current conversation (settings, system); a permission decision
   * is written at once, before the call it allows runs.
   */
  note(body: EntryBody): void;
  /** Records `message`, which the loop is about to append, and flushes. */
  record(message: ChatMessage): Promise<void>;
  /** Records the messages appended since the last record, plugin state if changed; flushes. */
  sync(): Promise<void>;
  /** Runs `rewrite` (a compaction) and records a checkpoint when it changed the conversation. */
  rewriting<T>(rewrite: () => Promise<T>): Promise<T>;
  /** Ends a turn: what is left, the plugins' state, the turn's end (with its closing note). */
  endTurn(termination: string, note: ChatMessage | undefined): Promise<void>;
  /** Flushes and syncs what is left, then closes the journal. */
  close(): Promise<void>;
}

/** Creates the recorder; messages already in the journal (a resume's) count as recorded. */
export function createRecorder(deps: RecorderDeps): Recorder {
  const messages = deps.messages;
  let recorded = messages.length;
  let lastStates: string | undefined;
  let failing = false;

  const add = (body: EntryBody, n = messages.length) => deps.journal.add(body, n);
  const catchUp = () => {
    for (; recorded < messages.length; recorded++) {
      add({ type: "message", message: messages[recorded]! }, recorded + 1);
    }
  };
  const currentStates = () => deps.states();
  const states = () => {
    const current = currentStates();
    const text = JSON.stringify(current);
    if (text !== lastStates) add({ type: "plugins", states: current });
    lastStates = text;
  };
  const flush = async () => {
    try {
      await deps.journal.flush();
      failing = false;
    } catch (error) {
      if (!failing) {
        deps.log.warn(
          `session ${deps.sessionId}: the journal could not be written: ` +
            `${(error as Error).message}. The conversation goes on in memory; --resume returns ` +
            "to the last entry written.",
        );
      }
      failing = true;
    }
  };

  const recorder: Recorder = {
    note(body) {
      add(body);
      // Called from a synchronous event sink: written now, ahead of what the call does.
      if (body.type === "permission") void flush();
    },
    async record(message) {
      catchUp();
      add({ type: "message", message }, messages.length + 1);
      recorded++;
      await flush();
    },
    async sync() {
      catchUp();
      states();
      await flush();
    },
    async rewriting(rewrite) {
      catchUp();
      const before = [...messages];
      const result = await rewrite();
      const changed = before.length !== messages.length ||
        before.some((message, index) => messages[index] !== message);
      if (changed) {
        const plugins = currentStates();
        lastStates = JSON.stringify(plugins);
        add({
          type: "checkpoint",
          messages: messages.slice(1),
          retained: deps.retained(),
          replaced: before.length - 1,
          plugins,
        });
        recorded = messages.length;
      }
      return result;
    },
    async endTurn(termination, note) {
      catchUp();
      states();
      add(
        { type: "turn_end", termination, ...(note ? { note } : {}) },
        messages.length + (note ? 1 : 0),
      );
      await flush();
      try {
        await deps.journal.sync();
      } catch { /* flushed above; durability is best effort */ }
    },
    async close() {
      await flush();
      deps.journal.close();
    },
  };
  return recorder;
}
