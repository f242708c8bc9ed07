/**
 * The sessions the chat's `/resume` offers: this project's sessions that hel recorded creating
 * (the rule `--resume` follows), that no hel uses now and that hold a conversation, each with
 * its first prompt for the picker. The first prompt is read from the journal's start, at most
 * {@link FIRST_PROMPT_SCAN_BYTES} of it, never the whole journal.
 *
 * @module
 */
import type { ChatMessage } from "../../core/types.ts";
import { isCheckpoint } from "../compaction/plan.ts";
import { listSessions } from "./catalog.ts";
import { checkJournalFile, journalPath, parseEntry } from "./journal.ts";
import { recordedProject } from "./record.ts";
import { loadSnapshot } from "./snapshot.ts";
import { sessionPaths } from "./store.ts";

/** How much of a journal's start is read to find its first prompt. */
export const FIRST_PROMPT_SCAN_BYTES = 1024 * 1024;

/** A saved session `/resume` can switch to. */
export interface ResumableSession {
  id: string;
  /** ISO 8601 time of its last journal entry. */
  updatedAt: string;
  /** Messages of its conversation, system message included. */
  messageCount: number;
  /** The person's first message (as sent: outside text), when found near the journal's start. */
  firstPrompt?: string;
}

/**
 * This project's sessions that can be resumed, most recently updated first, leaving out
 * `exclude` (the session the chat is in), busy ones, unreadable ones and ones without a message.
 */
export async function resumableSessions(
  project: string,
  helHome: string,
  exclude?: string,
): Promise<ResumableSession[]> {
  const found: ResumableSession[] = [];
  for (const row of await listSessions(project)) {
    if (row.id === exclude || row.busy || row.problem !== undefined) continue;
    if (row.updatedAt === undefined || (row.messageCount ?? 0) < 2) continue;
    if (await recordedProject(helHome, row.id) !== project) continue;
    const firstPrompt = await readFirstPrompt(project, row.id).catch(() => undefined);
    found.push({
      id: row.id,
      updatedAt: row.updatedAt,
      messageCount: row.messageCount!,
      ...(firstPrompt !== undefined ? { firstPrompt } : {}),
    });
  }
  return found;
}

/** The first user message that is not a compaction checkpoint. */
function firstUserText(messages: readonly ChatMessage[]): string | undefined {
  const found = messages.find((message) => message.role === "user" && !isCheckpoint(message));
  return found?.role === "user" ? found.content : undefined;
}

/**
 * The first prompt of session `id`: from the complete lines of its journal's first
 * {@link FIRST_PROMPT_SCAN_BYTES} (a forked session's is in its first checkpoint), or from an
 * older hel's snapshot. Undefined when not found there.
 */
export async function readFirstPrompt(project: string, id: string): Promise<string | undefined> {
  const { dir } = sessionPaths(project, id);
  let text: string;
  try {
    await checkJournalFile(journalPath(dir));
    using file = await Deno.open(journalPath(dir), { read: true });
    const bytes = new Uint8Array(FIRST_PROMPT_SCAN_BYTES);
    let read = 0;
    while (read < bytes.length) {
      const got = await file.read(bytes.subarray(read));
      if (got === null) break;
      read += got;
    }
    text = new TextDecoder().decode(bytes.subarray(0, read));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    const snapshot = await loadSnapshot(dir, id, project);
    return firstUserText(snapshot.messages);
  }
  // Only complete lines: the last one may be cut by the bound.
  const lines = text.slice(0, text.lastIndexOf("\n") + 1).split("\n");
  for (const line of lines) {
    if (line.trim() === "") continue;
    const entry = parseEntry(line, 0);
    const messages = entry.type === "message"
      ? [entry.message]
      : entry.type === "checkpoint"
      ? entry.messages
      : [];
    const prompt = firstUserText(messages);
    if (prompt !== undefined) return prompt;
  }
  return undefined;
}
