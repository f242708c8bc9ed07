/**
 * What `hel sessions`, the `--resume` picker and the chat's `/resume` show of a session, read
 * without loading its journal whole: the first lines (when it began, the model, the person's
 * first prompt: usually within the first few KB, never more than {@link START_SCAN_BYTES}) and
 * the last line (when it was last written, its messages, the person's turns).
 *
 * @module
 */
import type { ChatMessage } from "../../core/types.ts";
import { isCheckpoint } from "../compaction/plan.ts";
import {
  checkJournalFile,
  type JournalEntry,
  journalPath,
  lastLine,
  parseEntry,
  parseJournal,
  readBytes,
} from "./journal.ts";
import { loadSnapshot } from "./snapshot.ts";

/** How much of a journal's start is read, at most, to find its model and first prompt. */
export const START_SCAN_BYTES = 1024 * 1024;

/** The first read of a journal's start; each further read is four times larger. */
const FIRST_READ = 16 * 1024;

/** What is known of a saved conversation; each field undefined when not found. */
export interface ConversationSummary {
  /** ISO 8601 time the session began. */
  createdAt?: string;
  /** ISO 8601 time of its journal's last entry (an older hel's: its snapshot's save). */
  updatedAt?: string;
  /** Messages of its conversation, the system message left out. */
  messages?: number;
  /** The person's turns (messages sent), compacted ones included. */
  turns?: number;
  /** The model of its first run. */
  model?: string;
  /** The person's first message, as sent: outside text, neutralise before showing. */
  firstPrompt?: string;
}

/** The first user message that is not a compaction checkpoint. */
function firstUserText(messages: readonly ChatMessage[]): string | undefined {
  const found = messages.find((message) => message.role === "user" && !isCheckpoint(message));
  return found?.role === "user" ? found.content : undefined;
}

/**
 * The summary of the session in folder `dir`: from its journal, or an older hel's snapshot.
 * Empty when the journal holds no complete line. Throws `NotFound` when the session has
 * neither; otherwise an error naming the file at fault (`journal.jsonl: line 1 ...`).
 */
export async function readSummary(
  dir: string,
  id: string,
  project: string,
): Promise<ConversationSummary> {
  try {
    return await journalSummary(dir);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return await snapshotSummary(dir, id, project);
    throw new Error(`journal.jsonl: ${(error as Error).message}`);
  }
}

async function snapshotSummary(dir: string, id: string, project: string) {
  let snapshot;
  try {
    snapshot = await loadSnapshot(dir, id, project);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw error;
    throw new Error(`snapshot.json: ${(error as Error).message}`);
  }
  const messages = snapshot.messages.filter((message) => message.role !== "system");
  const firstPrompt = firstUserText(messages);
  return {
    createdAt: snapshot.created_at,
    updatedAt: snapshot.updated_at,
    messages: messages.length,
    turns: messages.filter((m) => m.role === "user" && !isCheckpoint(m)).length,
    ...(firstPrompt !== undefined ? { firstPrompt } : {}),
  };
}

async function journalSummary(dir: string): Promise<ConversationSummary> {
  const path = journalPath(dir);
  await checkJournalFile(path);
  using file = await Deno.open(path, { read: true });
  const size = (await file.stat()).size;
  const start = await readStart(file, size);
  if (!start.head) return {};
  const last = await lastLine(file, size);
  const tail = last === undefined ? start.head : parseEntry(last, 0);
  const turns = tail.u ?? await olderTurns(file, size);
  const head = start.head;
  return {
    ...(head.type === "session" ? { createdAt: head.created_at } : {}),
    updatedAt: tail.t,
    messages: Math.max(0, tail.n - 1),
    ...(turns !== undefined ? { turns } : {}),
    ...(start.model !== undefined ? { model: start.model } : {}),
    ...(start.firstPrompt !== undefined ? { firstPrompt: start.firstPrompt } : {}),
  };
}

/**
 * The journal's first entry, the model of its first `run` entry and the first prompt, from its
 * complete lines within {@link START_SCAN_BYTES}, read a little at a time until both are found.
 */
async function readStart(file: Deno.FsFile, size: number) {
  const found: { head?: JournalEntry; model?: string; firstPrompt?: string } = {};
  const bound = Math.min(size, START_SCAN_BYTES);
  const decoder = new TextDecoder();
  let pending = "";
  let lineNumber = 0;
  for (let offset = 0, span = FIRST_READ; offset < bound; span *= 4) {
    const bytes = await readBytes(file, offset, Math.min(span, bound - offset));
    if (bytes.length === 0) break;
    offset += bytes.length;
    pending += decoder.decode(bytes, { stream: true });
    let stop: number;
    while ((stop = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, stop);
      pending = pending.slice(stop + 1);
      lineNumber++;
      if (line.trim() === "") continue;
      const entry = parseEntry(line, lineNumber);
      found.head ??= entry;
      take(found, entry);
      if (found.model !== undefined && found.firstPrompt !== undefined) return found;
    }
  }
  return found;
}

/** Notes the model of the first `run` entry and the first prompt, when `entry` has them. */
function take(found: { model?: string; firstPrompt?: string }, entry: JournalEntry): void {
  if (entry.type === "run" && found.model === undefined) {
    const model = entry.settings?.model;
    if (typeof model === "string") found.model = model;
  }
  if (found.firstPrompt !== undefined) return;
  const messages = entry.type === "message"
    ? [entry.message]
    : entry.type === "checkpoint" && Array.isArray(entry.messages)
    ? entry.messages
    : [];
  const prompt = firstUserText(messages);
  if (prompt !== undefined) found.firstPrompt = prompt;
}

/**
 * The person's turns in a journal of an older hel (no `u` stamps): its user messages, counted
 * in the whole journal when it is small enough to read; undefined otherwise.
 */
async function olderTurns(file: Deno.FsFile, size: number): Promise<number | undefined> {
  if (size > START_SCAN_BYTES) return undefined;
  const { entries } = parseJournal(new TextDecoder().decode(await readBytes(file, 0, size)));
  return entries.filter((entry) =>
    entry.type === "message" && entry.message.role === "user" && !isCheckpoint(entry.message)
  ).length;
}
