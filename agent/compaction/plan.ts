/**
 * Context compaction, the pure part: the threshold policy, token estimates of a
 * conversation, pruning of old large tool results, the choice of the recent tail to keep,
 * the summary request and the checkpoint that replaces the older part. No I/O here; the
 * compactor (compactor.ts) drives these steps and talks to the model.
 *
 * @module
 */
import instruction from "./prompt.txt" with { type: "text" };
import type { ModelReply } from "../../core/model.ts";
import { codePointLength, elideMiddle } from "../../core/text.ts";
import type { ChatMessage, UserMessage } from "../../core/types.ts";
import { UsageError } from "../../core/usage_error.ts";

/** When to compact and how much recent history to keep, in estimated tokens. */
export interface CompactionPolicy {
  /** Compact before a request whose conversation is estimated above this. */
  at: number;
  /** The recent messages kept verbatim fit in this many tokens. */
  keepRecent: number;
}

/** The context window assumed when `--context-window` is not given (DeepSeek's). */
export const DEFAULT_CONTEXT_WINDOW = 1_000_000;
/** Room kept free below the window for the next request's own growth. */
const HEADROOM_TOKENS = 65_536;

/**
 * The default policy for a context window and the output reservation:
 * at = min(80% of the window, window − output − 65,536) and keep-recent = 16% of
 * (window − output). Small windows, where that headroom does not fit, compact at half of
 * (window − output).
 */
export function defaultPolicy(window: number, maxOutputTokens: number): CompactionPolicy {
  const usable = window - maxOutputTokens;
  if (usable <= 0) {
    throw new UsageError(
      `--context-window ${window} leaves no room for --max-output-tokens ${maxOutputTokens}; ` +
        "give a larger window or a smaller output limit",
    );
  }
  const keepRecent = Math.floor(usable * 16 / 100);
  let at = Math.min(Math.floor(window * 0.8), usable - HEADROOM_TOKENS);
  if (at <= keepRecent) at = Math.floor(usable / 2);
  return { at, keepRecent: Math.min(keepRecent, at - 1) };
}

/** Flags that shape compaction (`--context-window`, `--compact-at`, `--keep-recent`, `--no-compaction`). */
export interface CompactionFlags {
  compaction: boolean;
  contextWindow?: number;
  compactAt?: number;
  keepRecent?: number;
  maxOutputTokens: number;
}

/** The policy the flags ask for, or undefined with `--no-compaction`; bad combinations throw. */
export function policyFromFlags(flags: CompactionFlags): CompactionPolicy | undefined {
  const explicit = flags.compactAt !== undefined || flags.keepRecent !== undefined;
  if (!flags.compaction) {
    if (explicit || flags.contextWindow !== undefined) {
      throw new UsageError(
        "--no-compaction cannot be combined with --compact-at, --keep-recent or --context-window",
      );
    }
    return undefined;
  }
  if (explicit) {
    if (flags.compactAt === undefined || flags.keepRecent === undefined) {
      throw new UsageError("--compact-at and --keep-recent go together; give both");
    }
    if (flags.keepRecent >= flags.compactAt) {
      throw new UsageError(
        `--keep-recent (${flags.keepRecent}) must be below --compact-at (${flags.compactAt})`,
      );
    }
    const room = flags.contextWindow === undefined
      ? undefined
      : flags.contextWindow - flags.maxOutputTokens;
    if (room !== undefined && flags.compactAt > room) {
      // Compacting only past the window would be too late: the request would already fail.
      throw new UsageError(
        `--compact-at (${flags.compactAt}) must leave room for --max-output-tokens ` +
          `(${flags.maxOutputTokens}) within --context-window (${flags.contextWindow}); ` +
          `give at most ${room}`,
      );
    }
    return { at: flags.compactAt, keepRecent: flags.keepRecent };
  }
  return defaultPolicy(flags.contextWindow ?? DEFAULT_CONTEXT_WINDOW, flags.maxOutputTokens);
}

/** Estimated tokens of messages: characters of their JSON encodings, divided by four. */
export function conversationTokens(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const message of messages) chars += codePointLength(JSON.stringify(message));
  return Math.ceil(chars / 4);
}

/** Tool results longer than this many characters are pruned once they are old. */
export const PRUNE_OVER_CHARS = 8_192;
const PRUNE_HEAD_CHARS = 4_096;
const PRUNE_TAIL_CHARS = 1_024;

/** Indices of the tool results in `[from, to)` long enough to prune. */
export function pruneCandidates(messages: readonly ChatMessage[], from: number, to: number) {
  const found: number[] = [];
  for (let index = from; index < to; index++) {
    const message = messages[index];
    if (message?.role === "tool" && codePointLength(message.content) > PRUNE_OVER_CHARS) {
      found.push(index);
    }
  }
  return found;
}

/**
 * A tool result cut to its head and tail, with a marker saying where the rest is, if saved,
 * and how to read it again (`readAgain`, from the plugin offering file reading).
 */
export function prunedContent(
  text: string,
  savedAt: string | undefined,
  readAgain?: string,
): string {
  const where = savedAt
    ? `; the full result is saved at ${savedAt}${readAgain ? ` (${readAgain})` : ""}`
    : "";
  return elideMiddle(
    text,
    PRUNE_HEAD_CHARS,
    PRUNE_TAIL_CHARS,
    (omitted) =>
      `[... ${omitted} characters of this old tool result were pruned to save context${where} ...]`,
  );
}

/**
 * Where the kept recent tail starts: the earliest index after `first` whose suffix fits in
 * `keepRecent` tokens and that is not a tool result (a result stays with its call). When no
 * suffix fits, the shortest valid tail; undefined when there is none.
 */
export function selectTail(
  messages: readonly ChatMessage[],
  first: number,
  keepRecent: number,
): number | undefined {
  let shortest: number | undefined;
  let chosen: number | undefined;
  let tokens = 0;
  for (let index = messages.length - 1; index > first; index--) {
    tokens += conversationTokens([messages[index]!]);
    if (messages[index]!.role === "tool") continue;
    shortest ??= index;
    if (tokens <= keepRecent) chosen = index;
    else break;
  }
  return chosen ?? shortest;
}

const CHECKPOINT_PREAMBLE =
  "[Automatic checkpoint] The earlier part of this conversation was compacted into the " +
  "summary below to save context. Treat it as background knowledge and go on with the work " +
  "where it stands; do not reply to this checkpoint.";

/** The user message that replaces the summarised part. */
export function checkpointMessage(summary: string): UserMessage {
  return {
    role: "user",
    content: `${CHECKPOINT_PREAMBLE}\n\n<compacted-summary>\n${summary.trim()}\n` +
      "</compacted-summary>",
  };
}

/** True for a checkpoint made by {@link checkpointMessage}. */
export function isCheckpoint(message: ChatMessage | undefined): boolean {
  return message?.role === "user" && message.content.startsWith(CHECKPOINT_PREAMBLE);
}

/** The summary request: the older history unchanged, then the compaction instruction. */
export function summaryRequest(older: readonly ChatMessage[]): ChatMessage[] {
  return [...older, { role: "user", content: instruction.trim() }];
}

/** The summary text of a reply, or why the reply cannot be used as a summary. */
export function readSummary(reply: ModelReply): { summary: string } | { rejected: string } {
  if (!reply.ok) return { rejected: `summary request failed: ${reply.error}` };
  if ((reply.message.tool_calls ?? []).length > 0) {
    return { rejected: "the summary called a tool" };
  }
  if (reply.finishReason === "length") {
    return { rejected: "the summary was cut off at the output limit" };
  }
  const text = typeof reply.message.content === "string" ? reply.message.content.trim() : "";
  if (text === "") return { rejected: "the summary was empty" };
  return { summary: text };
}
