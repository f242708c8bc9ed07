/**
 * Replaying a journal into the conversation a resumed run continues. A journal cut short by a
 * crash is closed here: each tool call that has no result gets one saying it was interrupted and
 * its effects are unknown, and a turn without an answer gets a closing note, so the
 * conversation is one a model API accepts and the model knows to check before repeating.
 *
 * @module
 */
import type { ChatMessage } from "../../core/types.ts";
import type { EntryBody, JournalEntry } from "./journal.ts";
import { isCheckpoint } from "../compaction/plan.ts";
import { conversationProblem, otherProject, SnapshotError } from "./snapshot.ts";
import { isRecord } from "../../core/is_record.ts";

/** The state of a session after its journal. */
export interface SessionState {
  createdAt: string;
  /** The conversation without its system message (rebuilt by each run). */
  messages: ChatMessage[];
  /** Retained plugin messages after the last compaction checkpoint. */
  retained: number;
  plugins: Record<string, unknown>;
  /** Entries that closed a journal cut short; the resumed run appends them. */
  repairs: EntryBody[];
  /** The person's turns in the session, compacted ones included (see {@link personTurns}). */
  turns: number;
}

/** The text of the result given to a call that was running (or due) when hel stopped. */
export const INTERRUPTED_RESULT = "error: interrupted: hel stopped (it was killed or crashed) " +
  "before this call's result was recorded. The call may have run in part or in full, and its " +
  "effects are unknown: check the current state before repeating it.";

/** The note closing a turn that hel did not live to end. */
export const CRASH_NOTE = "[hel] This turn ended without an answer (hel stopped: it was killed " +
  "or crashed); the tool calls and results above are what was recorded before it ended.";

/**
 * Replays the entries of session `id` of `project`. Throws {@link SnapshotError} when the
 * journal is not this session's or does not make a valid conversation.
 */
export function replayJournal(
  entries: readonly JournalEntry[],
  id: string,
  project: string,
): SessionState {
  const head = entries[0];
  if (head?.type !== "session") throw new SnapshotError("the journal does not start a session");
  if (head.session_id !== id) {
    throw new SnapshotError(`session_id ${JSON.stringify(head.session_id)} is not ${id}`);
  }
  if (head.project !== project) throw otherProject(head.project, project);
  const state: SessionState = {
    createdAt: String(head.created_at),
    messages: [],
    retained: 0,
    plugins: {},
    repairs: [],
    turns: 0,
  };
  for (const [index, entry] of entries.entries()) {
    apply(state, entry, index + 1);
  }
  close(state);
  state.turns = personTurns(entries, state.messages);
  if (state.messages.length > 0) {
    const problem = conversationProblem(state.messages);
    if (problem) throw new SnapshotError(problem);
  }
  return state;
}

function apply(state: SessionState, entry: JournalEntry, line: number): void {
  switch (entry.type) {
    case "message":
      if (!isRecord(entry.message)) throw new SnapshotError(`line ${line}: no message`);
      state.messages.push(entry.message);
      return;
    case "checkpoint":
      if (!Array.isArray(entry.messages) || !Number.isInteger(entry.retained)) {
        throw new SnapshotError(`line ${line}: a malformed checkpoint`);
      }
      state.messages = [...entry.messages];
      state.retained = entry.retained;
      if (isRecord(entry.plugins)) state.plugins = entry.plugins;
      return;
    case "plugins":
      if (!isRecord(entry.states)) throw new SnapshotError(`line ${line}: malformed plugin state`);
      state.plugins = entry.states;
      return;
    case "turn_end":
      if (entry.note) state.messages.push(entry.note);
      return;
    case "session":
    case "run":
    case "system":
    case "permission":
      return;
    default:
      throw new SnapshotError(
        `line ${line}: unknown entry type ${JSON.stringify((entry as { type: unknown }).type)}`,
      );
  }
}

/**
 * The person's turns: the last entry's `u`; for a journal of an older hel (no `u`), the user
 * messages of the conversation that are not a compaction's.
 */
export function personTurns(
  entries: readonly JournalEntry[],
  messages: readonly ChatMessage[],
): number {
  const stamped = entries.findLast((entry) => Number.isInteger(entry.u));
  if (stamped) return stamped.u!;
  return messages.filter((message) => message.role === "user" && !isCheckpoint(message)).length;
}

/** Answers the calls left without a result and closes a turn left without an answer. */
function close(state: SessionState): void {
  const messages = state.messages;
  const lastCalls = messages.findLastIndex((m) => m.role === "assistant");
  const assistant = messages[lastCalls];
  const calls = assistant?.role === "assistant" ? assistant.tool_calls ?? [] : [];
  const answered = new Set(
    messages.slice(lastCalls + 1).map((m) => m.role === "tool" ? m.tool_call_id : undefined),
  );
  for (const call of calls) {
    if (answered.has(call.id)) continue;
    const message: ChatMessage = {
      role: "tool",
      tool_call_id: call.id,
      content: INTERRUPTED_RESULT,
    };
    messages.push(message);
    state.repairs.push({ type: "message", message });
  }
  const last = messages.at(-1);
  if (last && !(last.role === "assistant" && !last.tool_calls?.length)) {
    const note: ChatMessage = { role: "assistant", content: CRASH_NOTE };
    messages.push(note);
    state.repairs.push({ type: "turn_end", termination: "crashed", note });
  }
}
