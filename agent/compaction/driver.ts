/**
 * The compactor: before each conversation request it estimates the conversation and, over the
 * threshold, first prunes old large tool results, then (if still over) asks the model for a
 * summary of the older part and replaces that part with a checkpoint. Plugins' retained
 * messages (e.g. skills) go right after the checkpoint. A summary that cannot be used leaves
 * the conversation as it was. The tool list is never touched.
 *
 * @module
 */
import {
  checkpointMessage,
  type CompactionPolicy,
  conversationTokens,
  isCheckpoint,
  pruneCandidates,
  prunedContent,
  readSummary,
  selectTail,
  summaryRequest,
} from "./plan.ts";
import type { ModelClient } from "../../core/model.ts";
import type { Logger } from "../../core/plugin.ts";
import type { PluginDriver } from "../../core/plugin_driver.ts";
import type { SpillWriter } from "../../core/spill.ts";
import type { FileReading } from "../../core/file_reading.ts";
import type { ChatMessage, ToolDefinition } from "../../core/types.ts";
import { addUsage, type RunUsage } from "../../core/usage.ts";

/** What the compactor needs from the run. */
export interface CompactorDeps {
  policy: CompactionPolicy;
  model: ModelClient;
  /** The tool definitions of the conversation, sent unchanged with the summary request. */
  toolDefinitions(): ToolDefinition[];
  /** Where the retained messages come from (each plugin's `afterCompaction`). */
  plugins: Pick<PluginDriver, "afterCompaction">;
  usage: RunUsage;
  log: Logger;
  /** Saves the full text of a pruned result; undefined when spilling is off. */
  save: SpillWriter | undefined;
  /** How the model reads a saved result again, when a plugin offers file reading. */
  reading?: FileReading;
  /** How many messages after the checkpoint are retained plugin messages (from a snapshot). */
  retained: number;
}

/** The compactor of one run. */
export interface Compactor {
  /** Compacts when the conversation is over the threshold; rewrites `messages` in place. */
  beforeRequest(messages: ChatMessage[], signal: AbortSignal): Promise<void>;
  /** Prunes and summarises now, whatever the size (`/compact`); true when it summarised. */
  compactNow(messages: ChatMessage[], signal: AbortSignal): Promise<boolean>;
  /** Records the prompt tokens the server reported for a request of `count` messages. */
  measured(count: number, promptTokens: number): void;
  /** Retained plugin messages right after the checkpoint (saved in the snapshot). */
  retained(): number;
}

/** Creates the compactor of a run. */
export function createCompactor(deps: CompactorDeps): Compactor {
  let retained = deps.retained;
  // The server's count for the last request beats our estimate for the messages it covered.
  let meter: { count: number; promptTokens: number } | undefined;

  const estimate = (messages: readonly ChatMessage[]) =>
    meter && meter.count <= messages.length
      ? meter.promptTokens + conversationTokens(messages.slice(meter.count))
      : conversationTokens(messages);

  const firstIndex = (messages: readonly ChatMessage[]) => messages[0]?.role === "system" ? 1 : 0;

  /** The conversation without the retained region, which is rebuilt, never summarised. */
  const withoutRegion = (messages: readonly ChatMessage[]) => {
    const first = firstIndex(messages);
    if (retained === 0 || !isCheckpoint(messages[first])) return [...messages];
    return [...messages.slice(0, first + 1), ...messages.slice(first + 1 + retained)];
  };

  async function prune(messages: ChatMessage[]): Promise<boolean> {
    const first = firstIndex(messages);
    const tail = selectTail(messages, first, deps.policy.keepRecent);
    if (tail === undefined) return false;
    const indices = pruneCandidates(messages, first, tail);
    if (indices.length === 0) return false;
    const before = estimate(messages);
    for (const index of indices) {
      const message = messages[index] as Extract<ChatMessage, { role: "tool" }>;
      const savedAt = deps.save ? await deps.save(message.content) : undefined;
      messages[index] = {
        ...message,
        content: prunedContent(message.content, savedAt, deps.reading?.pruned),
      };
    }
    meter = undefined;
    deps.log.info(
      `[compaction] pruned ${indices.length} old tool result${indices.length === 1 ? "" : "s"}: ` +
        `~${before} → ~${estimate(messages)} tokens`,
    );
    return true;
  }

  /** The plugins' retained messages, together within the room left under the threshold. */
  function regionFor(candidate: readonly ChatMessage[]): ChatMessage[] {
    return deps.plugins.afterCompaction(
      candidate,
      (region) => Math.max(0, deps.policy.at - conversationTokens([...candidate, ...region])),
    );
  }

  async function summarise(messages: ChatMessage[], signal: AbortSignal): Promise<boolean> {
    const skip = (why: string) => {
      deps.log.info(`[compaction] skipped: ${why}; the conversation is unchanged`);
      return false;
    };
    const history = withoutRegion(messages);
    const first = firstIndex(history);
    const tail = selectTail(history, first, deps.policy.keepRecent);
    const older = tail === undefined ? [] : history.slice(first, tail);
    if (tail === undefined || older.every((message) => isCheckpoint(message))) {
      return skip("nothing old enough to summarise");
    }
    const reply = await deps.model.complete(
      {
        messages: summaryRequest(history.slice(0, tail)),
        tools: deps.toolDefinitions(),
        purpose: "compaction",
      },
      { signal },
    );
    // An interrupted request cost nothing the server will report; a failed one may have.
    if (reply.ok || reply.kind !== "interrupted") {
      addUsage(deps.usage, reply.ok ? reply.usage : undefined);
    }
    const read = readSummary(reply);
    if ("rejected" in read) return skip(read.rejected);
    const kept = [...history.slice(0, first), checkpointMessage(read.summary)];
    const base = [...kept, ...history.slice(tail)];
    const region = regionFor(base);
    const candidate = [...kept, ...region, ...history.slice(tail)];
    const before = estimate(messages);
    const after = conversationTokens(candidate);
    if (after >= conversationTokens(messages)) {
      return skip(`the summary is not smaller (~${after} tokens)`);
    }
    messages.splice(0, messages.length, ...candidate);
    retained = region.length;
    meter = undefined;
    deps.log.info(
      `[compaction] ${older.length} messages → summary: ~${before} → ~${after} tokens`,
    );
    return true;
  }

  return {
    async beforeRequest(messages, signal) {
      if (estimate(messages) <= deps.policy.at) return;
      if (await prune(messages) && estimate(messages) <= deps.policy.at) return;
      await summarise(messages, signal);
    },
    async compactNow(messages, signal) {
      await prune(messages);
      return await summarise(messages, signal);
    },
    measured(count, promptTokens) {
      meter = { count, promptTokens };
    },
    retained: () => retained,
  };
}
