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
import type { CompactionEvent } from "../../core/events.ts";
import type { ModelClient } from "../../core/model.ts";
import type { Logger } from "../../core/plugin.ts";
import type { PluginDriver } from "../../core/plugin_driver.ts";
import type { SpillWriter } from "../../core/spill.ts";
import type { FileReading } from "../../core/file_reading.ts";
import type { ChatMessage, ToolDefinition } from "../../core/types.ts";
import { addFailedCall, addUsage, type RunUsage } from "../../core/usage.ts";

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
  /** Hears each compaction (automatic or `/compact`) that changed the conversation. */
  emit?(event: CompactionEvent): void;
}

/**
 * What `/compact` did: how many messages the summary replaced and old tool results were cut,
 * and the conversation's size before and after (messages without the system message, tokens
 * estimated).
 */
export interface CompactionReport {
  /** Messages the summary replaced; 0 when no summary was made (`skipped` says why). */
  summarised: number;
  /** Old large tool results cut to their head and tail. */
  pruned: number;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  /** Why no summary was made, when none was. */
  skipped?: string;
}

/** The compactor of one run. */
export interface Compactor {
  /** Compacts when the conversation is over the threshold; rewrites `messages` in place. */
  beforeRequest(messages: ChatMessage[], signal: AbortSignal): Promise<void>;
  /**
   * Prunes and summarises now (`/compact`), whatever the threshold: the recent part kept
   * verbatim is at most a tenth of the conversation, so most of it is summarised. Logs nothing:
   * the caller reports what it did.
   */
  compactNow(messages: ChatMessage[], signal: AbortSignal): Promise<CompactionReport>;
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

  /** Cuts the old large tool results before the kept tail; returns how many. */
  async function prune(messages: ChatMessage[], keepRecent: number): Promise<number> {
    const first = firstIndex(messages);
    const tail = selectTail(messages, first, keepRecent);
    if (tail === undefined) return 0;
    const indices = pruneCandidates(messages, first, tail);
    for (const index of indices) {
      const message = messages[index] as Extract<ChatMessage, { role: "tool" }>;
      const savedAt = deps.save ? await deps.save(message.content) : undefined;
      messages[index] = {
        ...message,
        content: prunedContent(message.content, savedAt, deps.reading?.pruned),
      };
    }
    if (indices.length > 0) meter = undefined;
    return indices.length;
  }

  /** The plugins' retained messages, together within the room left under the threshold. */
  function regionFor(candidate: readonly ChatMessage[]): ChatMessage[] {
    return deps.plugins.afterCompaction(
      candidate,
      (region) => Math.max(0, deps.policy.at - conversationTokens([...candidate, ...region])),
    );
  }

  /** Replaces the part older than the kept tail with a summary; says how many, or why not. */
  async function summarise(
    messages: ChatMessage[],
    signal: AbortSignal,
    keepRecent: number,
  ): Promise<{ replaced: number; before: number; after: number } | { skipped: string }> {
    const history = withoutRegion(messages);
    const first = firstIndex(history);
    const tail = selectTail(history, first, keepRecent);
    const older = tail === undefined ? [] : history.slice(first, tail);
    if (tail === undefined || older.every((message) => isCheckpoint(message))) {
      return { skipped: "nothing old enough to summarise" };
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
    if (reply.ok) addUsage(deps.usage, reply.usage);
    else if (reply.kind !== "interrupted") addFailedCall(deps.usage);
    const read = readSummary(reply);
    if ("rejected" in read) return { skipped: read.rejected };
    const kept = [...history.slice(0, first), checkpointMessage(read.summary)];
    const base = [...kept, ...history.slice(tail)];
    const region = regionFor(base);
    const candidate = [...kept, ...region, ...history.slice(tail)];
    const before = estimate(messages);
    const after = conversationTokens(candidate);
    if (after >= conversationTokens(messages)) {
      return { skipped: `the summary is not smaller (~${after} tokens)` };
    }
    messages.splice(0, messages.length, ...candidate);
    retained = region.length;
    meter = undefined;
    return { replaced: older.length, before, after };
  }

  return {
    async beforeRequest(messages, signal) {
      if (estimate(messages) <= deps.policy.at) return;
      const before = estimate(messages);
      const pruned = await prune(messages, deps.policy.keepRecent);
      const compacted = (summarised: number) =>
        deps.emit?.({
          type: "compaction",
          trigger: "auto",
          summarised,
          pruned,
          tokensBefore: before,
          tokensAfter: estimate(messages),
        });
      if (pruned > 0) {
        deps.log.info(
          `[compaction] pruned ${pruned} old tool result${pruned === 1 ? "" : "s"}: ` +
            `~${before} → ~${estimate(messages)} tokens`,
        );
        if (estimate(messages) <= deps.policy.at) return compacted(0);
      }
      const done = await summarise(messages, signal, deps.policy.keepRecent);
      deps.log.info(
        "skipped" in done
          ? `[compaction] skipped: ${done.skipped}; the conversation is unchanged`
          : `[compaction] ${done.replaced} messages → summary: ~${done.before} → ~${done.after} tokens`,
      );
      if ("replaced" in done || pruned > 0) compacted("replaced" in done ? done.replaced : 0);
    },
    async compactNow(messages, signal) {
      const count = () => messages.length - firstIndex(messages);
      const messagesBefore = count();
      const tokensBefore = estimate(messages);
      const keepRecent = Math.min(deps.policy.keepRecent, Math.floor(tokensBefore / 10));
      const pruned = await prune(messages, keepRecent);
      const done = await summarise(messages, signal, keepRecent);
      const summarised = "replaced" in done ? done.replaced : 0;
      const tokensAfter = estimate(messages);
      if (summarised > 0 || pruned > 0) {
        const event = { summarised, pruned, tokensBefore, tokensAfter };
        deps.emit?.({ type: "compaction", trigger: "manual", ...event });
      }
      return {
        summarised,
        pruned,
        messagesBefore,
        messagesAfter: count(),
        tokensBefore,
        tokensAfter,
        ...("skipped" in done ? { skipped: done.skipped } : {}),
      };
    },
    measured(count, promptTokens) {
      meter = { count, promptTokens };
    },
    retained: () => retained,
  };
}
